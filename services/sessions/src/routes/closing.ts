import Router from '@koa/router';
import { CREATOR_TOKEN_HEADER, CREATOR_TOKEN_REJECTED, type VotingStateChange } from '@logovote/contracts';
import {
  PollModel,
  activePoll,
  deletePollStatus,
  findActivePoll,
  isCreatorTokenOf,
  recordVotingState,
  signalPollVisibility,
} from '@logovote/models';
import { HttpError, pollNotFound, pollOr404, requireCsrf } from '@logovote/service-kit';

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
      const poll = pollOr404(await findActivePoll(ctx.params.sessionId, ['resultsVisibility']));
      const pollId = poll._id;
      if (!(await isCreatorTokenOf(pollId, ctx.get(CREATOR_TOKEN_HEADER) || undefined))) throw new HttpError(403, CREATOR_TOKEN_REJECTED);
      const state = await recordVotingState(pollId, closed);
      // A deletion that began meanwhile has already removed the poll's state, or is about to: what this wrote
      // must not outlive the poll.
      if (!(await PollModel.exists(activePoll(pollId)))) {
        await deletePollStatus(pollId);
        throw pollNotFound();
      }
      // Streams that show the counts only while voting is closed end when it reopens (docs/results-visibility.md).
      if (poll.resultsVisibility) await signalPollVisibility(pollId);
      const body: VotingStateChange = {
        sessionId: pollId,
        closed: state.closed,
        ...(state.closedAt ? { closedAt: state.closedAt.toISOString() } : {}),
      };
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    });
  }

  return router;
}
