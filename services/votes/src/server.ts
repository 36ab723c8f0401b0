import { HOUR_MS } from '@logovote/contracts';
import {
  attributeLedger,
  channelLedger,
  purgeVotesOfDeletedPolls,
  sweepAnalyticsEvents,
  sweepVoteSignals,
  voteLedger,
} from '@logovote/models';
import { bootService, connectMongo, disconnectMongo, runInBackground } from '@logovote/service-kit';
import { buildApp, liveResultsSignals } from './app';
import { loadConfig } from './config';
import { sweepTestRecords } from './models/fingerprint-test';
import { forgetExpiredProofs } from './models/spent-proof';
import { foldReasonThemes } from './use-cases/fold-reason-themes';

/**
 * How often the ledger is folded into tallies (docs/vote-counts.md): counts are exact without it, and a
 * session view reads what is pending since the last fold, so a busy poll's views stay small with it.
 */
const FOLD_INTERVAL_MS = 250;
/** How often logos whose reasons changed get their themes found again (docs/reasons.md, "Themes"). */
const FOLD_THEMES_INTERVAL_MS = 2_000;
/** How often the votes of polls being deleted are removed (the sessions service waits for it). */
const PURGE_INTERVAL_MS = 1_000;
/** How often spent proofs of work whose challenges have expired are forgotten. */
const FORGET_PROOFS_INTERVAL_MS = 60_000;
/** How often analytics events past their retention are removed (whole days of them). */
const SWEEP_ANALYTICS_INTERVAL_MS = HOUR_MS;
/** How often the fingerprint test tool's records past their retention are removed (whole hours of them). */
const SWEEP_TEST_RECORDS_INTERVAL_MS = HOUR_MS;
/** How often the live results' vote signals that no reader looks at any more are removed. */
const SWEEP_SIGNALS_INTERVAL_MS = 5_000;

bootService({
  service: 'votes',
  loadConfig,
  async start(config, logger) {
    await connectMongo(config.MONGODB_URI, logger);
    const folder = runInBackground('fold vote tallies', () => voteLedger.foldDue(), FOLD_INTERVAL_MS, logger);
    const channelFolder = runInBackground('fold channel tallies', () => channelLedger.foldDue(), FOLD_INTERVAL_MS, logger);
    const answersFolder = runInBackground('fold attribute answers', () => attributeLedger.foldDue(), FOLD_INTERVAL_MS, logger);
    const themesFolder = runInBackground('find reason themes', () => foldReasonThemes(), FOLD_THEMES_INTERVAL_MS, logger);
    const purger = runInBackground('remove the votes of deleted polls', () => purgeVotesOfDeletedPolls(), PURGE_INTERVAL_MS, logger);
    const forgetter = runInBackground('forget expired proofs of work', () => forgetExpiredProofs(), FORGET_PROOFS_INTERVAL_MS, logger);
    const analyticsSweeper = runInBackground(
      'remove old analytics events',
      () => sweepAnalyticsEvents(),
      SWEEP_ANALYTICS_INTERVAL_MS,
      logger,
    );
    const testRecordSweeper = runInBackground(
      'remove old fingerprint test records',
      () => sweepTestRecords(),
      SWEEP_TEST_RECORDS_INTERVAL_MS,
      logger,
    );
    const signalSweeper = runInBackground('remove old vote signals', () => sweepVoteSignals(), SWEEP_SIGNALS_INTERVAL_MS, logger);
    const voteSignals = liveResultsSignals(logger);
    return {
      app: buildApp({ logger, config, voteSignals }),
      async onShutdown() {
        // The votes taken last are signalled before the connection closes.
        await voteSignals.flush();
        await Promise.all([
          folder.stop(),
          channelFolder.stop(),
          answersFolder.stop(),
          themesFolder.stop(),
          purger.stop(),
          forgetter.stop(),
          analyticsSweeper.stop(),
          testRecordSweeper.stop(),
          signalSweeper.stop(),
        ]);
        await disconnectMongo();
      },
    };
  },
});
