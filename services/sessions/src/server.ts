import { DAY_MS } from '@logovote/contracts';
import { createModerationProvider, createUploadPipeline, warmUpModeration } from '@logovote/media-pipeline';
import { sweepAdminLoginFailures, sweepRateTickets, sweepUploadRefusals, pollCount } from '@logovote/models';
import { bootService, connectMongo, createObjectStore, disconnectMongo, ensureBucket, runInBackground } from '@logovote/service-kit';
import { buildApp } from './app';
import { LiveCountsHub } from './live/live-counts';
import { loadConfig, requestLimits } from './config';
import { startRetentionSweep } from './polls/retention';
import { UploadRefusalRecorder } from './polls/upload-refusals';

/** How often the poll count's ledger is folded (the count is exact without it). */
const FOLD_INTERVAL_MS = 5_000;

bootService({
  service: 'sessions',
  loadConfig,
  async start(config, logger) {
    const store = createObjectStore(config);
    const moderation = createModerationProvider(config);
    await Promise.all([connectMongo(config.MONGODB_URI, logger), ensureBucket(store, config.S3_REGION)]);
    const folder = runInBackground('fold the poll count', () => pollCount.foldDue(), FOLD_INTERVAL_MS, logger);
    warmUpModeration(moderation, logger);
    const retention = startRetentionSweep({
      store,
      logger,
      retentionMs: config.RETENTION_DAYS * DAY_MS,
      intervalMs: config.RETENTION_SWEEP_INTERVAL_MS,
    });
    // Refused uploads are kept 30 days (docs/moderation.md): whole hours past that go, as often as polls are swept.
    const refusalSweep = runInBackground('upload refusal sweep', () => sweepUploadRefusals(), config.RETENTION_SWEEP_INTERVAL_MS, logger);
    // The rate limits' tickets of past days, the notify service's too.
    const ticketSweep = runInBackground('rate ticket sweep', () => sweepRateTickets(), config.RETENTION_SWEEP_INTERVAL_MS, logger);
    // Failed admin sign-ins count for a day (SECURITY.md): whole hours past that go.
    const loginSweep = runInBackground(
      'sign-in failure sweep',
      () => sweepAdminLoginFailures(),
      config.RETENTION_SWEEP_INTERVAL_MS,
      logger,
    );
    const refusals = new UploadRefusalRecorder(logger);
    const liveCounts = new LiveCountsHub({ logger });
    const app = buildApp({
      logger,
      store,
      pipeline: createUploadPipeline({ moderation, svg: config }),
      csrfSecret: config.CSRF_SECRET,
      ipHashSalt: config.IP_HASH_SALT,
      publicOrigin: config.PUBLIC_ORIGIN,
      liveCounts,
      refusals,
      limits: requestLimits(config),
      svg: config,
    });
    return {
      app,
      endLongResponses: () => liveCounts.endAll(),
      onShutdown: async () => {
        await Promise.all([
          retention.stop(),
          folder.stop(),
          refusalSweep.stop(),
          ticketSweep.stop(),
          loginSweep.stop(),
          refusals.idle(),
          moderation.close(),
        ]);
        await disconnectMongo();
      },
    };
  },
});
