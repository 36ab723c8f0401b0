import { createModerationProvider, createUploadPipeline, warmUpModeration } from '@logovote/media-pipeline';
import { bootService, connectMongo, createObjectStore, disconnectMongo, ensureBucket, uploadRateLimits } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';

bootService({
  service: 'media',
  loadConfig,
  async start(config, logger) {
    const store = createObjectStore(config);
    const moderation = createModerationProvider(config);
    // The database tells which poll a logo belongs to, and whether it may be shown.
    await Promise.all([connectMongo(config.MONGODB_URI, logger), ensureBucket(store, config.S3_REGION)]);
    warmUpModeration(moderation, logger);
    return {
      app: buildApp({ logger, store, pipeline: createUploadPipeline({ moderation, svg: config }), uploadRate: uploadRateLimits(config) }),
      onShutdown: async () => {
        await moderation.close();
        await disconnectMongo();
      },
    };
  },
});
