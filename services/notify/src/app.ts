import type Koa from 'koa';
import { createServiceApp, mongoReadiness, type Logger } from '@logovote/service-kit';

export interface NotifyDeps {
  logger: Logger;
}

/** E-mail: sends the creator the voting and results links. */
export function buildApp({ logger }: NotifyDeps): Koa {
  return createServiceApp({ service: 'notify', logger, routers: [], readiness: [mongoReadiness] });
}
