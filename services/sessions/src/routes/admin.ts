import Router from '@koa/router';
import {
  AdminPollsQuery,
  REVIEW_ROUND_UNKNOWN,
  ReviewRequest,
  SessionId,
  TOTAL_COUNT_HEADER,
  type AdminPoll,
  type DeletedPoll,
  type ReportedPollList,
  type ReviewedPoll,
} from '@logovote/contracts';
import { requestedLogoName, sendLogoObject } from '@logovote/media-pipeline';
import {
  PollModel,
  activePoll,
  countListedPolls,
  listedPolls,
  readPollStatus,
  readPollContact,
  recordReview,
  voteLedger,
} from '@logovote/models';
import { HttpError, jsonBody, parseInput, parseJsonBody, type ObjectStore } from '@logovote/service-kit';
import { deletePoll } from '../polls/delete-poll';
import { listReportedPolls } from '../polls/reported-polls';
import { logosWithCounts, totalVotes } from '../polls/vote-counts';

export const POLL_NOT_FOUND = 'Poll not found';

/** The admin's copy of a logo is revalidated on every use: the poll may be deleted any time. */
const ADMIN_LOGO_CACHE_CONTROL = 'private, no-cache';

/** The admin API (the gateway asks for the admin's credentials in front of it). */
export function adminRouter(store: ObjectStore): Router {
  const router = new Router({ prefix: '/api/admin' });

  // A page of the list (newest first) with its polls' counts: what it reads depends on the page, not
  // on how many polls or votes are stored.
  router.get('/polls', async (ctx) => {
    const { before, limit } = parseInput(AdminPollsQuery, ctx.query);
    const [{ polls, next }, total] = await Promise.all([listedPolls({ before, limit }), countListedPolls()]);
    const [counts, contacts, moderation] = await Promise.all([
      Promise.all(polls.map((poll) => voteLedger.readCounts(poll._id))),
      Promise.all(polls.map((poll) => readPollContact(poll._id))),
      Promise.all(polls.map((poll) => readPollStatus(poll._id))),
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
        // Additive (docs/moderation.md): only a poll hidden pending review says so; its images are under /api/admin/logos/.
        ...(moderation[index]?.hidden ? { hidden: true } : {}),
      };
    });
    ctx.set('Cache-Control', 'no-store');
    ctx.set(TOTAL_COUNT_HEADER, String(total));
    if (next !== undefined) ctx.set('Link', `</api/admin/polls?before=${next}&limit=${limit}>; rel="next"`);
    ctx.body = body;
  });

  // A logo image for the admin, whatever its poll's state (docs/moderation.md): the public /api/logos/ refuses
  // the images of a poll hidden pending review, which the admin must still see to review it.
  router.get('/logos/:filename', async (ctx) => {
    await sendLogoObject(ctx, store, requestedLogoName(ctx.params.filename), ADMIN_LOGO_CACHE_CONTROL);
  });

  router.delete('/polls/:pollId', async (ctx) => {
    const pollId = SessionId.safeParse(ctx.params.pollId).data;
    const deleted = pollId ? await deletePoll(store, pollId) : null;
    if (!pollId || !deleted) throw new HttpError(404, POLL_NOT_FOUND);
    const body: DeletedPoll = { pollId, deleted };
    ctx.body = body;
  });

  // Reported polls (docs/moderation.md): those with reports since their last review.
  router.get('/reports', async (ctx) => {
    const body: ReportedPollList = await listReportedPolls();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  // The admin restores a poll: the round's reports no longer count and a hidden poll takes votes again.
  // PUT, like DELETE, needs a CORS preflight: a cross-site page cannot send it with the admin's credentials.
  router.put('/reports/:pollId/review', jsonBody(), async (ctx) => {
    const { round } = parseJsonBody(ctx, ReviewRequest);
    const pollId = SessionId.safeParse(ctx.params.pollId).data;
    if (!pollId || (await PollModel.exists(activePoll(pollId))) === null) throw new HttpError(404, POLL_NOT_FOUND);
    const state = await readPollStatus(pollId);
    if (round > state.round) throw new HttpError(409, REVIEW_ROUND_UNKNOWN);
    // A round reviewed already (a repeated click, or another admin) answers the state as it is.
    const reviewed = round === state.round ? { round: await recordReview(pollId, round), hidden: false } : state;
    const body: ReviewedPoll = { pollId, hidden: reviewed.hidden, round: reviewed.round };
    ctx.body = body;
  });

  return router;
}
