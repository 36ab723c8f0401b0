import { createModerationProvider, createUploadPipeline, warmUpModeration } from '@logovote/media-pipeline';
import { bootService, connectMongo, createObjectStore, disconnectMongo, ensureBucket } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';
import { startRetentionSweep } from './polls/retention';

const DAY_MS = 24 * 60 * 60 * 1000;

bootService({
  service: 'sessions',
  loadConfig,
  async start(config, logger) {
    const store = createObjectStore(config);
    const moderation = createModerationProvider(config);
    await Promise.all([connectMongo(config.MONGODB_URI, logger), ensureBucket(store, config.S3_REGION)]);
    warmUpModeration(moderation, logger);
    const retention = startRetentionSweep({
      store,
      logger,
      retentionMs: config.RETENTION_DAYS * DAY_MS,
      intervalMs: config.RETENTION_SWEEP_INTERVAL_MS,
    });
    const app = buildApp({
      logger,
      store,
      pipeline: createUploadPipeline({ moderation }),
      csrfSecret: config.CSRF_SECRET,
      publicOrigin: config.PUBLIC_ORIGIN,
    });
    return {
      app,
      onShutdown: async () => {
        await retention.stop();
        await disconnectMongo();
      },
    };
  },
});
