import { createModerationProvider, createUploadPipeline, warmUpModeration } from '@logovote/media-pipeline';
import { bootService, createObjectStore, ensureBucket, uploadRateLimits } from '@logovote/service-kit';
import { buildApp } from './app';
import { loadConfig } from './config';

bootService({
  service: 'media',
  loadConfig,
  async start(config, logger) {
    const store = createObjectStore(config);
    const moderation = createModerationProvider(config);
    await ensureBucket(store, config.S3_REGION);
    warmUpModeration(moderation, logger);
    return {
      app: buildApp({ logger, store, pipeline: createUploadPipeline({ moderation }), uploadRate: uploadRateLimits(config) }),
      onShutdown: () => moderation.close(),
    };
  },
});
