import type Koa from 'koa';
import { createServiceApp, mongoReadiness, objectStoreReadiness, type Logger, type ObjectStore } from '@logovote/service-kit';

export interface SessionsDeps {
  logger: Logger;
  store: ObjectStore;
}

/** Polls: creation, lookup, plan, admin listing and deletion, retention. */
export function buildApp({ logger, store }: SessionsDeps): Koa {
  return createServiceApp({ service: 'sessions', logger, routers: [], readiness: [mongoReadiness, objectStoreReadiness(store)] });
}
