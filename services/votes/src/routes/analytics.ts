import Router from '@koa/router';
import { AnalyticsBatch } from '@logovote/contracts';
import { recordAnalyticsEvents } from '@logovote/models';
import { jsonBody, parseJsonBody } from '@logovote/service-kit';

/**
 * The first-party analytics collector: the browser batches events and flushes them here with
 * sendBeacon or a keepalive fetch, never waiting for the answer.
 */
export function analyticsRouter(): Router {
  const router = new Router();
  router.post('/api/analytics/events', jsonBody(), async (ctx) => {
    const batch = parseJsonBody(ctx, AnalyticsBatch);
    await recordAnalyticsEvents(batch.events);
    ctx.status = 202;
    ctx.body = { accepted: batch.events.length };
  });
  return router;
}
