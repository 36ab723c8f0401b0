import type Koa from 'koa';
import type { UploadPipeline } from '@logovote/media-pipeline';
import { createServiceApp, mongoReadiness, objectStoreReadiness, type Logger, type ObjectStore } from '@logovote/service-kit';
import { logosRouter } from './routes/logos';
import { moderationRouter } from './routes/moderation';

export interface MediaDeps {
  logger: Logger;
  store: ObjectStore;
  pipeline: UploadPipeline;
}

/** Logo images: serving from object storage (of polls that may be shown), and the moderation test endpoint. */
export function buildApp({ logger, store, pipeline }: MediaDeps): Koa {
  return createServiceApp({
    service: 'media',
    logger,
    routers: [logosRouter(store), moderationRouter(pipeline)],
    readiness: [mongoReadiness, objectStoreReadiness(store)],
  });
}
