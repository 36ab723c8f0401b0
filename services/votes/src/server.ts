import { bootService, connectMongo, disconnectMongo } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';

bootService({
  service: 'votes',
  loadConfig,
  async start(config, logger) {
    await connectMongo(config.MONGODB_URI, logger);
    return { app: buildApp({ logger }), onShutdown: disconnectMongo };
  },
});
