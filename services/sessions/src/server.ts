import { bootService, connectMongo, createObjectStore, disconnectMongo, ensureBucket } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';

bootService({
  service: 'sessions',
  loadConfig,
  async start(config, logger) {
    const store = createObjectStore(config);
    await Promise.all([connectMongo(config.MONGODB_URI, logger), ensureBucket(store, config.S3_REGION)]);
    return { app: buildApp({ logger, store }), onShutdown: disconnectMongo };
  },
});
