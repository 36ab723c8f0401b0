import Router from '@koa/router';
import {
  ADMIN_REASONS_PER_LOGO,
  ADMIN_SEARCH_LIMIT,
  AdminPollsQuery,
  REVIEW_ROUND_UNKNOWN,
  SEARCH_MORE_HEADER,
  ReviewRequest,
  SessionId,
  TOTAL_COUNT_HEADER,
  type AdminPoll,
  type AdminPollDetails,
  type DeletedPoll,
  type ReportedPollList,
  type ReviewedPoll,
} from '@logovote/contracts';
import { requestedLogoName, sendLogoObject } from '@logovote/media-pipeline';
import {
  countListedPolls,
  readActivePoll,
  listedPolls,
  readPollStatus,
  readPollContact,
  readReasons,
  recordReview,
  searchPolls,
  voteLedger,
  type LivePoll,
} from '@logovote/models';
import {
  HttpError,
  jsonBody,
  parseInput,
  parseJsonBody,
  pollNotFound,
  pollOr404,
  type Logger,
  type ObjectStore,
} from '@logovote/service-kit';
import { channelResults } from '../polls/channel-counts';
import { deletePoll } from '../polls/delete-poll';
import { sendResultsCsv } from '../polls/results-csv';
import { listReportedPolls } from '../polls/reported-polls';
import { logosWithCounts, totalVotes } from '../polls/vote-counts';

export const POLL_NOT_FOUND = 'Poll not found';

/** The admin's copy of a logo is revalidated on every use: the poll may be deleted any time. */
const ADMIN_LOGO_CACHE_CONTROL = 'private, no-cache';

/** Entries of a search read per word at most: a word found in more polls than this answers some of them, and says more match. */
const SEARCH_CANDIDATES = 1_000;
/** A poll id, alone or in a pasted voting or results link. */
const POLL_ID_IN_TEXT = /(?:^|\/)([A-Za-z0-9_-]{16})(?:[/?#]|$)/;

/** The admin list's entries of these polls: their counts, the creator's e-mail, the plan, whether hidden pending review. */
async function adminEntries(polls: LivePoll[]): Promise<AdminPoll[]> {
  const [counts, contacts] = await Promise.all([
    Promise.all(polls.map(({ poll }) => voteLedger.readCounts(poll._id))),
    Promise.all(polls.map(({ poll }) => readPollContact(poll._id))),
  ]);
  return polls.map(({ poll, status }, index) => {
    const logos = logosWithCounts(poll.logos, counts[index]);
    return {
      pollId: poll._id,
      feedbackPrompt: poll.feedbackPrompt ?? null,
      createdAt: poll.createdAt.toISOString(),
      totalVotes: totalVotes(logos),
      creatorEmail: contacts[index]?.email ?? null,
      paymentPlan: status.paymentPlan,
      logos,
      // Additive (docs/moderation.md): only a poll hidden pending review says so; its images are under /api/admin/logos/.
      ...(status.hidden ? { hidden: true } : {}),
    };
  });
}

/**
 * The admin's search (docs/admin.md, "Search"): the poll whose id the text holds, then the polls whose
 * question or logo names hold every word, newest first, each once.
 */
async function searchedPolls(text: string): Promise<{ polls: LivePoll[]; more: boolean }> {
  const id = POLL_ID_IN_TEXT.exec(text)?.[1];
  const [byId, byWords] = await Promise.all([
    id ? readActivePoll(id) : null,
    searchPolls(text, { limit: ADMIN_SEARCH_LIMIT, candidates: SEARCH_CANDIDATES }),
  ]);
  const found = await Promise.all(byWords.pollIds.filter((pollId) => pollId !== byId?.poll._id).map((pollId) => readActivePoll(pollId)));
  const polls = [...(byId ? [byId] : []), ...found.filter((entry): entry is LivePoll => entry !== null)].slice(0, ADMIN_SEARCH_LIMIT);
  return { polls, more: byWords.more };
}

/** The admin API (the gateway asks for the admin's credentials in front of it). */
export function adminRouter(deps: { store: ObjectStore; logger: Logger; publicOrigin: string }): Router {
  const { store } = deps;
  const router = new Router({ prefix: '/api/admin' });

  // A page of the list (newest first) with its polls' counts: what it reads depends on the page, not
  // on how many polls or votes are stored. With `q`, the search instead, in one answer.
  router.get('/polls', async (ctx) => {
    const { before, limit, q } = parseInput(AdminPollsQuery, ctx.query);
    ctx.set('Cache-Control', 'no-store');
    if (q !== undefined) {
      const { polls, more } = await searchedPolls(q);
      ctx.set(TOTAL_COUNT_HEADER, String(polls.length));
      if (more) ctx.set(SEARCH_MORE_HEADER, 'true');
      ctx.body = await adminEntries(polls);
      return;
    }
    const [{ polls, next }, total] = await Promise.all([listedPolls({ before, limit }), countListedPolls()]);
    const body: AdminPoll[] = await adminEntries(polls);
    ctx.set(TOTAL_COUNT_HEADER, String(total));
    if (next !== undefined) ctx.set('Link', `</api/admin/polls?before=${next}&limit=${limit}>; rel="next"`);
    ctx.body = body;
  });

  // One poll's details: the list's entry, whether voting is open, who sees the results, the channels' votes,
  // the newest reasons of each logo, and the public results page.
  router.get('/polls/:pollId', async (ctx) => {
    const pollId = SessionId.safeParse(ctx.params.pollId).data;
    const found = pollOr404(pollId ? await readActivePoll(pollId) : null, POLL_NOT_FOUND);
    const { poll, status } = found;
    const [[entry], channels, reasons] = await Promise.all([
      adminEntries([found]),
      poll.channels?.length ? channelResults(poll) : null,
      Promise.all(poll.logos.map((logo) => readReasons(poll._id, logo.id, undefined, ADMIN_REASONS_PER_LOGO))),
    ]);
    const body: AdminPollDetails = {
      ...entry!,
      closed: status.closed,
      closedAt: status.closed ? (status.closedAt?.toISOString() ?? null) : null,
      resultsVisibility: poll.resultsVisibility ?? 'everyone',
      channels,
      reasons: poll.logos.map((logo, index) => ({
        logoId: logo.id,
        reasons: reasons[index]!.reasons.map((reason) => ({ reason: reason.text, at: reason.at.toISOString() })),
        more: reasons[index]!.next !== null,
      })),
      resultsUrl: `${deps.publicOrigin}/results/${poll._id}`,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  // The results as CSV, whatever the poll's results rule (docs/export.md; the public download is the creator's only).
  router.get('/polls/:pollId/results.csv', async (ctx) => {
    const pollId = SessionId.safeParse(ctx.params.pollId).data;
    const { poll } = pollOr404(pollId ? await readActivePoll(pollId) : null, POLL_NOT_FOUND);
    await sendResultsCsv(ctx, deps.logger, poll);
  });

  // A logo image for the admin, whatever its poll's state (docs/moderation.md): the public /api/logos/ refuses
  // the images of a poll hidden pending review, which the admin must still see to review it.
  router.get('/logos/:filename', async (ctx) => {
    await sendLogoObject(ctx, store, requestedLogoName(ctx.params.filename), ADMIN_LOGO_CACHE_CONTROL);
  });

  router.delete('/polls/:pollId', async (ctx) => {
    const pollId = SessionId.safeParse(ctx.params.pollId).data;
    const deleted = pollId ? await deletePoll(store, pollId) : null;
    if (!pollId || !deleted) throw pollNotFound(POLL_NOT_FOUND);
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
    const status = pollId ? await readPollStatus(pollId) : null;
    if (!pollId || status?.state !== 'active') throw pollNotFound(POLL_NOT_FOUND);
    if (round > status.round) throw new HttpError(409, REVIEW_ROUND_UNKNOWN);
    // A round reviewed already (a repeated click, or another admin) answers the status as it is.
    const reviewed = round === status.round ? { round: await recordReview(pollId, round), hidden: false } : status;
    const body: ReviewedPoll = { pollId, hidden: reviewed.hidden, round: reviewed.round };
    ctx.body = body;
  });

  return router;
}
