import Router from '@koa/router';
import {
  DIRECT_LINK_GROUP,
  REASON_MESSAGES,
  ReasonRequest,
  type ReasonResponse,
  type ReasonsPage,
  type ThemesResponse,
} from '@logovote/contracts';
import {
  currentVote,
  dropReasons,
  insertReason,
  readLogoThemes,
  readReasons,
  replaceReason,
  seatChannel,
  signalReasonGiven,
  type StoredTheme,
  voteLedger,
} from '@logovote/models';
import { HttpError, jsonBody, parseJsonBody, pollOr404, requireCsrf, resultsViewerClues, type Logger } from '@logovote/service-kit';
import { maskProfanity } from '../profanity';
import { pollToVoteOn, votingRefusal } from '../use-cases/cast-vote';
import { voterFinder } from '../voter';
import { readablePoll, readWordsPage } from './feedback';
import { voterRequests } from './voter-request';
import { VOTING_REFUSED } from './votes';

export interface ReasonsRouteOptions {
  csrfSecret: string;
  ipHashSalt: string;
  logger: Logger;
}

/** PUT reason (the voter's, given or edited) and GET reasons (everyone's, per logo) under /api/sessions/{sessionId} (docs/reasons.md). */
export function reasonsRouter(options: ReasonsRouteOptions): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });
  const findVoter = voterFinder(options.ipHashSalt);
  const voters = voterRequests(options.ipHashSalt);
  const viewerOf = resultsViewerClues(options);

  // The voter, the anti-forgery token and the poll are checked as for a vote.
  router.put('/reason', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const voter = voters.cluesOf(ctx, ctx.params.sessionId);
    const { reason } = parseJsonBody(ctx, ReasonRequest);
    const poll = pollOr404(await pollToVoteOn(ctx.params.sessionId));
    // Voting has ended on a closed poll, explaining a vote with it (docs/closing.md).
    const stopped = await votingRefusal(poll._id);
    if (stopped) throw new HttpError(409, VOTING_REFUSED[stopped]);
    const { voterKey } = findVoter(poll._id, voter);
    const vote = await currentVote(voterKey);
    const logoId = vote.logoId;
    if (logoId === null || !poll.logos.some((logo) => logo.id === logoId)) throw new HttpError(409, REASON_MESSAGES.noVote);
    const text = maskProfanity(reason);
    // The reason carries the channel its voter came through (docs/channels.md), so the results tell audiences apart.
    const channel = await seatChannel(voterKey);
    const given = { pollId: poll._id, logoId, voterKey, rev: vote.rev, text, channel };
    const stored = await insertReason(given);
    // A second reason for the same vote is an edit of the first (docs/reasons.md).
    if (stored === 'exists') await replaceReason(given);
    if (stored === 'busy') throw new HttpError(503, 'Many reasons are being sent right now. Please try again.');
    // A vote change that dropped this voter's reasons before ours was stored: ours explains a choice no
    // longer held (the vote use case drops after its change too, so one of the two always sees the other).
    if ((await voteLedger.head(voterKey)).rev > vote.rev) {
      await dropReasons(voterKey, vote.rev);
      throw new HttpError(409, REASON_MESSAGES.voteChanged);
    }
    // Open results pages read the reasons again on this signal (docs/live-results.md); the reason stands without it.
    await signalReasonGiven(poll._id).catch((error: unknown) => options.logger.warn({ err: error }, 'live reasons signal not written'));
    const body: ReasonResponse = { logoId, reason: text };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  // Reasons show preferences as counts do: withheld with them (docs/results-visibility.md).
  router.get('/reasons', async (ctx) => {
    const page = await readWordsPage(ctx, viewerOf, async (pollId, logoId, before) => {
      const { reasons, next } = await readReasons(pollId, logoId, before);
      return { entries: reasons, next };
    });
    const body: ReasonsPage = { reasons: page.entries.map(({ text, ...rest }) => ({ reason: text, ...rest })), next: page.next };
    ctx.body = body;
  });

  // Themes say what the reasons say: withheld with them; for the creator, each channel's too (docs/reasons.md, "Themes").
  router.get('/themes', async (ctx) => {
    const { poll, creator } = await readablePoll(ctx, viewerOf);
    const names = new Map((poll.channels ?? []).map((channel) => [channel.id, channel.name]));
    const shown = (themes: StoredTheme[]) => themes.map(({ label, count, quotes }) => ({ label, count, quotes }));
    const logos = await Promise.all(
      poll.logos.map(async ({ id }) => {
        const found = (await readLogoThemes(poll._id, id))?.value;
        const channels = creator && names.size > 0 ? (found?.channels ?? []) : [];
        return {
          logoId: id,
          reasons: found?.reasons ?? 0,
          themes: shown(found?.themes ?? []),
          ...(channels.length > 0
            ? {
                channels: channels.map(({ channel, reasons, themes }) => ({
                  channel: names.get(channel) ?? DIRECT_LINK_GROUP,
                  reasons,
                  themes: shown(themes),
                })),
              }
            : {}),
        };
      }),
    );
    const body: ThemesResponse = { logos };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  return router;
}
