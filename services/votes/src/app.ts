import type Koa from 'koa';
import { createServiceApp, mongoReadiness, type Logger } from '@logovote/service-kit';

export interface VotesDeps {
  logger: Logger;
}

/** Votes: casting and changing a vote, my-vote status, the fingerprint test tool. */
export function buildApp({ logger }: VotesDeps): Koa {
  return createServiceApp({ service: 'votes', logger, routers: [], readiness: [mongoReadiness] });
}
