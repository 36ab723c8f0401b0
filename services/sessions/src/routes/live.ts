import Router from '@koa/router';
import { RESULTS_WITHHELD } from '@logovote/contracts';
import { RESULTS_RULE_FIELDS, readPollStatus, resultsWithheldFrom } from '@logovote/models';
import { HttpError, resultsViewerClues } from '@logovote/service-kit';
import type { LiveCountsHub } from '../live/live-counts';
import { shownPollOr4xx } from './requested-poll';

/** GET /api/sessions/{sessionId}/live: the poll's counts as server-sent events (docs/live-results.md). */
export function liveRouter(hub: LiveCountsHub, secrets: { csrfSecret: string; ipHashSalt: string }): Router {
  const router = new Router();
  const viewerOf = resultsViewerClues(secrets);

  router.get('/api/sessions/:sessionId/live', async (ctx) => {
    // A missing poll is the usual JSON 404, a hidden one 403 (docs/moderation.md), before any event.
    const poll = await shownPollOr4xx(ctx.params.sessionId, ['logos', ...RESULTS_RULE_FIELDS]);
    // Results withheld from this viewer while voting is open (docs/results-visibility.md): refused, or, while
    // the poll is closed, a stream that ends when voting reopens.
    const withheldWhileOpen = await resultsWithheldFrom(poll, viewerOf(ctx, poll._id), { closed: false });
    if (withheldWhileOpen && !(await readPollStatus(poll._id)).closed) throw new HttpError(403, RESULTS_WITHHELD[withheldWhileOpen]);
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // Any nginx in front (an ingress controller) passes events on as they come instead of buffering them.
      'X-Accel-Buffering': 'no',
    });
    ctx.req.socket.setNoDelay(true);
    ctx.body = hub.open(poll._id, poll.logos, { whileClosed: withheldWhileOpen !== undefined });
  });

  return router;
}
