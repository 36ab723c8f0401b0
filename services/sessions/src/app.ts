import type Koa from 'koa';
import type { UploadPipeline } from '@logovote/media-pipeline';
import { createServiceApp, mongoReadiness, objectStoreReadiness, type Logger, type ObjectStore } from '@logovote/service-kit';
import { adminRouter } from './routes/admin';
import { closingRouter } from './routes/closing';
import { sessionsRouter } from './routes/sessions';

export interface SessionsDeps {
  logger: Logger;
  store: ObjectStore;
  pipeline: UploadPipeline;
  csrfSecret: string;
  /** votingUrl and resultsUrl start with it (no trailing slash). */
  publicOrigin: string;
}

/** Polls: creation, lookup, plan, closing, admin listing and deletion (the retention sweep runs beside it, see server.ts). */
export function buildApp(deps: SessionsDeps): Koa {
  return createServiceApp({
    service: 'sessions',
    logger: deps.logger,
    routers: [sessionsRouter(deps), closingRouter(deps.csrfSecret), adminRouter(deps.store)],
    readiness: [mongoReadiness, objectStoreReadiness(deps.store)],
  });
}
