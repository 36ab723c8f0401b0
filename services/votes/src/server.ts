import { VoteLedgerModel, VoteModel, VoteTallyModel, foldDuePolls, migrateVotesToLedger } from '@logovote/models';
import { bootService, connectMongo, disconnectMongo, runInBackground } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';
import { TestSessionModel, TestVoteModel } from './models/fingerprint-test';

/** How often the ledger is folded into tallies (docs/vote-counts.md): counts are exact without it, reads stay small with it. */
const FOLD_INTERVAL_MS = 1_000;

bootService({
  service: 'votes',
  loadConfig,
  async start(config, logger) {
    await connectMongo(config.MONGODB_URI, logger);
    // One vote per voter, one ledger entry per revision and the per-address cap rest on unique indexes:
    // they must exist before the first vote.
    await Promise.all([VoteModel.init(), VoteLedgerModel.init(), VoteTallyModel.init(), TestSessionModel.init(), TestVoteModel.init()]);
    const migrated = await migrateVotesToLedger();
    if (migrated > 0) logger.info({ migrated }, 'votes from before the ledger entered in it');
    const folder = runInBackground('fold vote tallies', () => foldDuePolls(), FOLD_INTERVAL_MS, logger);
    return {
      app: buildApp({ logger, config }),
      async onShutdown() {
        await folder.stop();
        await disconnectMongo();
      },
    };
  },
});
