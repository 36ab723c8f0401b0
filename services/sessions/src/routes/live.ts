import Router from '@koa/router';
import type { LiveCountsHub } from '../live/live-counts';
import { shownPollOr4xx } from './requested-poll';

/** GET /api/sessions/{sessionId}/live: the poll's counts as server-sent events (docs/live-results.md). */
export function liveRouter(hub: LiveCountsHub): Router {
  const router = new Router();

  router.get('/api/sessions/:sessionId/live', async (ctx) => {
    // A missing poll is the usual JSON 404, a hidden one 403 (docs/moderation.md), before any event.
    const poll = await shownPollOr4xx(ctx.params.sessionId, ['logos']);
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // Any nginx in front (an ingress controller) passes events on as they come instead of buffering them.
      'X-Accel-Buffering': 'no',
    });
    ctx.req.socket.setNoDelay(true);
    ctx.body = hub.open(poll._id, poll.logos);
  });

  return router;
}
