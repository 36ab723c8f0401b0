import Router from '@koa/router';
import { AnalyticsBatch } from '@logovote/contracts';
import { jsonBody, parseJsonBody } from '@logovote/service-kit';
import { AnalyticsEventModel } from '../models/analytics-event';

/**
 * The first-party analytics collector: the browser batches events and flushes them here with
 * sendBeacon or a keepalive fetch, never waiting for the answer.
 */
export function analyticsRouter(): Router {
  const router = new Router();
  router.post('/api/analytics/events', jsonBody(), async (ctx) => {
    const batch = parseJsonBody(ctx, AnalyticsBatch);
    const receivedAt = new Date();
    await AnalyticsEventModel.insertMany(
      batch.events.map((event) => ({
        name: event.name,
        path: event.path,
        occurredAt: new Date(event.occurredAt),
        receivedAt,
        sessionId: event.session_id,
        logoId: event.logo_id,
        sawAllLogos: event.saw_all_logos,
      })),
      { ordered: false },
    );
    ctx.status = 202;
    ctx.body = { accepted: batch.events.length };
  });
  return router;
}
