import { VoteModel } from '@logovote/models';
import { bootService, connectMongo, disconnectMongo } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';
import { TestSessionModel, TestVoteModel } from './models/fingerprint-test';

bootService({
  service: 'votes',
  loadConfig,
  async start(config, logger) {
    await connectMongo(config.MONGODB_URI, logger);
    // One vote per voter and the per-address cap rest on unique indexes: they must exist before the first vote.
    await Promise.all([VoteModel.init(), TestSessionModel.init(), TestVoteModel.init()]);
    return { app: buildApp({ logger, config }), onShutdown: disconnectMongo };
  },
});
