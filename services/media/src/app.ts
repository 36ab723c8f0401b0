import type Koa from 'koa';
import type { UploadPipeline } from '@logovote/media-pipeline';
import {
  createServiceApp,
  mongoReadiness,
  objectStoreReadiness,
  uploadRateEnv,
  uploadRateLimits,
  type Logger,
  type ObjectStore,
  type UploadRateLimits,
} from '@logovote/service-kit';
import { logosRouter } from './routes/logos';
import { moderationRouter } from './routes/moderation';

export interface MediaDeps {
  logger: Logger;
  store: ObjectStore;
  pipeline: UploadPipeline;
  /** How slowly an upload may arrive (the configuration's defaults when not given). */
  uploadRate?: UploadRateLimits;
}

/** Logo images: serving from object storage (of polls that may be shown), and the moderation test endpoint. */
export function buildApp({ logger, store, pipeline, uploadRate = uploadRateLimits(uploadRateEnv.parse({})) }: MediaDeps): Koa {
  return createServiceApp({
    service: 'media',
    logger,
    routers: [logosRouter(store), moderationRouter(pipeline, uploadRate)],
    readiness: [mongoReadiness, objectStoreReadiness(store)],
  });
}
