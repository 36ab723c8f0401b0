import Router from '@koa/router';
import { AdminPollsQuery, SessionId, TOTAL_COUNT_HEADER, type AdminPoll, type DeletedPoll } from '@logovote/contracts';
import { countListedPolls, listedPolls, readPollContact, readVoteCounts } from '@logovote/models';
import { HttpError, parseInput, type ObjectStore } from '@logovote/service-kit';
import { deletePoll } from '../polls/delete-poll';
import { logosWithCounts, totalVotes } from '../polls/vote-counts';

export const POLL_NOT_FOUND = 'Poll not found';

/** The admin API (the gateway asks for the admin's credentials in front of it). */
export function adminRouter(store: ObjectStore): Router {
  const router = new Router({ prefix: '/api/admin' });

  // A page of the list (newest first) with its polls' counts: what it reads depends on the page, not
  // on how many polls or votes are stored.
  router.get('/polls', async (ctx) => {
    const { before, limit } = parseInput(AdminPollsQuery, ctx.query);
    const [{ polls, next }, total] = await Promise.all([listedPolls({ before, limit }), countListedPolls()]);
    const [counts, contacts] = await Promise.all([
      Promise.all(polls.map((poll) => readVoteCounts(poll._id))),
      Promise.all(polls.map((poll) => readPollContact(poll._id))),
    ]);
    const body: AdminPoll[] = polls.map((poll, index) => {
      const logos = logosWithCounts(poll.logos, counts[index]);
      return {
        pollId: poll._id,
        feedbackPrompt: poll.feedbackPrompt ?? null,
        createdAt: poll.createdAt.toISOString(),
        totalVotes: totalVotes(logos),
        creatorEmail: contacts[index]?.email ?? null,
        paymentPlan: poll.paymentPlan,
        logos,
      };
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.set(TOTAL_COUNT_HEADER, String(total));
    if (next !== undefined) ctx.set('Link', `</api/admin/polls?before=${next}&limit=${limit}>; rel="next"`);
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
