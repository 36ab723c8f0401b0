import type Koa from 'koa';
import { createServiceApp, objectStoreReadiness, type Logger, type ObjectStore } from '@logovote/service-kit';

export interface MediaDeps {
  logger: Logger;
  store: ObjectStore;
}

/** Logo images: serving from object storage, and the moderation test endpoint. */
export function buildApp({ logger, store }: MediaDeps): Koa {
  return createServiceApp({ service: 'media', logger, routers: [], readiness: [objectStoreReadiness(store)] });
}
