import Router from '@koa/router';
import { CREATOR_TOKEN_HEADER, CREATOR_TOKEN_REJECTED, type VotingStateChange } from '@logovote/contracts';
import { HttpError, pollNotFound, requireCsrf } from '@logovote/service-kit';
import { setVotingState } from '../polls/close-poll';

/**
 * POST /api/sessions/{id}/close and /reopen (docs/closing.md): the creator stops and resumes voting.
 * Like every write on a session they need the anti-forgery token; they also need the creator token
 * (403 without it; 404 for a poll that does not exist or is being deleted). Both are idempotent.
 */
export function closingRouter(csrfSecret: string): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });

  for (const [action, closed] of [
    ['close', true],
    ['reopen', false],
  ] as const) {
    router.post(`/${action}`, requireCsrf(csrfSecret), async (ctx) => {
      const state = await setVotingState(ctx.params.sessionId, ctx.get(CREATOR_TOKEN_HEADER) || undefined, closed);
      if (state.outcome === 'poll-not-found') throw pollNotFound();
      if (state.outcome === 'not-creator') throw new HttpError(403, CREATOR_TOKEN_REJECTED);
      const body: VotingStateChange = {
        sessionId: state.pollId,
        closed: state.closed,
        ...(state.closedAt ? { closedAt: state.closedAt.toISOString() } : {}),
      };
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    });
  }

  return router;
}
