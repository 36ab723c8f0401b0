import { bootService, createObjectStore, ensureBucket } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';

bootService({
  service: 'media',
  loadConfig,
  async start(config, logger) {
    const store = createObjectStore(config);
    await ensureBucket(store, config.S3_REGION);
    return { app: buildApp({ logger, store }), onShutdown: async () => undefined };
  },
});
