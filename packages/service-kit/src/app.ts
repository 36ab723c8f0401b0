import Koa from 'koa';
import type Router from '@koa/router';
import type { Logger } from 'pino';
import { errorHandler, jsonForEmptyResponses } from './errors';
import { healthRouter, type ReadinessCheck } from './health';
import { requestLogger } from './logger';

export interface ServiceAppOptions {
  service: string;
  logger: Logger;
  routers: Router[];
  readiness: ReadinessCheck[];
  /** Proxies in front of the service that append to X-Forwarded-For (TRUSTED_PROXY_HOPS; the gateway alone by default). */
  trustedProxyHops?: number;
}

/** The Koa app every service shares: request log, JSON errors, health, its routes. */
export function createServiceApp(options: ServiceAppOptions): Koa {
  const app = new Koa();
  // Behind nginx: X-Forwarded-For and X-Forwarded-Proto come from the gateway. A per-address limit must count
  // the address the last trusted proxy saw, not whatever the client wrote into X-Forwarded-For: ctx.ip reads
  // only the entries the trusted proxies appended.
  const trustedProxyHops = options.trustedProxyHops ?? 1;
  app.proxy = trustedProxyHops > 0;
  app.maxIpsCount = trustedProxyHops;
  app.use(requestLogger(options.logger));
  app.use(errorHandler(options.logger));
  app.use(jsonForEmptyResponses);
  const health = healthRouter(options.service, options.readiness, options.logger);
  app.use(health.routes());
  for (const router of options.routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  // Errors are answered by errorHandler; Koa's default handler would print them a second time.
  app.silent = true;
  return app;
}
