import { foldDuePolls, migrateVotesToLedger, purgeVotesOfDeletedPolls } from '@logovote/models';
import { bootService, connectMongo, disconnectMongo, runInBackground } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';

/** How often the ledger is folded into tallies (docs/vote-counts.md): counts are exact without it, reads stay small with it. */
const FOLD_INTERVAL_MS = 1_000;
/** How often the votes of polls being deleted are removed (the sessions service waits for it). */
const PURGE_INTERVAL_MS = 1_000;

bootService({
  service: 'votes',
  loadConfig,
  async start(config, logger) {
    await connectMongo(config.MONGODB_URI, logger);
    const migrated = await migrateVotesToLedger();
    if (migrated > 0) logger.info({ migrated }, 'votes from before the ledger entered in it');
    const folder = runInBackground('fold vote tallies', () => foldDuePolls(), FOLD_INTERVAL_MS, logger);
    const purger = runInBackground('remove the votes of deleted polls', () => purgeVotesOfDeletedPolls(), PURGE_INTERVAL_MS, logger);
    return {
      app: buildApp({ logger, config }),
      async onShutdown() {
        await Promise.all([folder.stop(), purger.stop()]);
        await disconnectMongo();
      },
    };
  },
});
