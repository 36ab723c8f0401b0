import Router from '@koa/router';
import { SessionId, type AdminPoll, type DeletedPoll } from '@logovote/contracts';
import { PollModel, readVoteCounts } from '@logovote/models';
import { HttpError, type ObjectStore } from '@logovote/service-kit';
import { deletePoll } from '../polls/delete-poll';
import { logosWithCounts, totalVotes } from '../polls/vote-counts';

export const POLL_NOT_FOUND = 'Poll not found';

/** The admin API (the gateway asks for the admin's credentials in front of it). */
export function adminRouter(store: ObjectStore): Router {
  const router = new Router({ prefix: '/api/admin' });

  router.get('/polls', async (ctx) => {
    const polls = await PollModel.find({ state: 'active' }).sort({ createdAt: -1 }).lean();
    const counts = await Promise.all(polls.map((poll) => readVoteCounts(poll._id)));
    const body: AdminPoll[] = polls.map((poll, index) => {
      const logos = logosWithCounts(poll.logos, counts[index]);
      return {
        pollId: poll._id,
        feedbackPrompt: poll.feedbackPrompt ?? null,
        createdAt: poll.createdAt.toISOString(),
        totalVotes: totalVotes(logos),
        creatorEmail: poll.creatorEmail ?? null,
        paymentPlan: poll.paymentPlan,
        logos,
      };
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.delete('/polls/:pollId', async (ctx) => {
    const pollId = SessionId.safeParse(ctx.params.pollId).data;
    const deleted = pollId ? await deletePoll(store, pollId) : null;
    if (!pollId || !deleted) throw new HttpError(404, POLL_NOT_FOUND);
    const body: DeletedPoll = { pollId, deleted };
    ctx.body = body;
  });

  return router;
}
