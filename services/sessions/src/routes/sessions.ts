import Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  ATTRIBUTES_FIELD,
  CHANNELS_FIELD,
  CreateSessionFields,
  LOGOS_FIELD,
  LOGO_NAMES_FIELD,
  MAX_FEEDBACK_PROMPT_LENGTH,
  MAX_ATTRIBUTES_PER_POLL,
  MAX_CHANNELS_PER_POLL,
  MAX_LOGO_BYTES,
  MAX_LOGOS_PER_POLL,
  SessionId,
  SessionLookupQuery,
  SetPlanRequest,
  type CreatedSessionWithCreatorToken,
  type ModerationState,
  type ResultsVisibilityState,
  type SessionViewWithVotingState,
  type SetPlanResponse,
  logoNamesCountMismatch,
  pollLinks,
  voterLogoOrder,
} from '@logovote/contracts';
import { multipartUpload, receivedUpload, type UploadPipeline } from '@logovote/media-pipeline';
import { hashCreatorToken, livePolls, newCreatorToken, recordPaymentPlan, resultsWithheldFrom } from '@logovote/models';
import {
  HttpError,
  derivedKey,
  hashIp,
  isDependencyUnavailable,
  issueCsrfToken,
  jsonBody,
  parseInput,
  parseJsonBody,
  pollNotFound,
  pollOr404,
  requireCsrf,
  resultsViewerClues,
  type Logger,
  type ObjectStore,
  type UploadRateLimits,
} from '@logovote/service-kit';
import { STORAGE_FAILED, claimPollCreation, pollCreator, type CreationLimits } from '../polls/create-poll';
import type { UploadRefusalRecorder } from '../polls/upload-refusals';
import { logosWithCounts, sharedVoteCounts, totalVotes } from '../polls/vote-counts';

export interface SessionsRouteOptions {
  store: ObjectStore;
  pipeline: UploadPipeline;
  logger: Logger;
  csrfSecret: string;
  ipHashSalt: string;
  publicOrigin: string;
  refusals: UploadRefusalRecorder;
  creationLimits: CreationLimits;
  uploadRate: UploadRateLimits;
}

/** `checks;dur=812.4, store;dur=35.0`: checks = type sniffing, decoding and content moderation; store = database and object store. */
function serverTiming(phases: Record<string, number>): string {
  return Object.entries(phases)
    .map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`)
    .join(', ');
}

export const NO_LOGOS = 'Please upload at least one logo to start voting.';
export const TOO_MANY_LOGOS = `You can only upload up to ${MAX_LOGOS_PER_POLL} logos.`;
const pollLimitReached = (limit: number, per: 'hour' | 'day') =>
  `Poll limit reached: at most ${limit} polls can be created per ${per} from the same network address. Please try again later.`;

/** Poll creation, lookup and plan: POST /api/sessions, GET /api/sessions/{id}, PUT /api/sessions/{id}/plan. */
export function sessionsRouter(options: SessionsRouteOptions): Router {
  const { csrfSecret, publicOrigin, creationLimits } = options;
  const router = new Router();
  const voteCounts = sharedVoteCounts();
  const addressKey = derivedKey(csrfSecret, 'poll-creations-per-address');
  const viewerOf = resultsViewerClues(options);
  const readLivePoll = livePolls().read;

  /**
   * Counts the request against its address's creation limits before a byte of the upload is read: past
   * them, nothing is received, checked or stored. Every request counts, refused uploads too: the checks
   * cost the same.
   */
  const limitCreations: Middleware = async (ctx, next) => {
    const claim = await claimPollCreation(hashIp(addressKey, ctx.ip), creationLimits).catch((error: unknown) => {
      // The database is away: the poll could not have been saved either.
      throw isDependencyUnavailable(error) ? new HttpError(503, STORAGE_FAILED) : error;
    });
    if (!claim.allowed) {
      throw new HttpError(429, pollLimitReached(claim.limit, claim.per), { 'Retry-After': String(claim.retryAfterSeconds) });
    }
    await next();
  };

  const createPoll = pollCreator(options);

  router.post(
    '/api/sessions',
    limitCreations,
    multipartUpload({
      fileField: LOGOS_FIELD,
      maxFiles: MAX_LOGOS_PER_POLL,
      maxFileBytes: MAX_LOGO_BYTES,
      textFields: ['feedbackPrompt', 'logoOrder', 'sharedNetwork', 'resultsVisibility'],
      // One more channel (and attribute) than allowed is received, so too many is refused with the schema's message.
      repeatedTextFields: {
        [LOGO_NAMES_FIELD]: MAX_LOGOS_PER_POLL,
        [CHANNELS_FIELD]: MAX_CHANNELS_PER_POLL + 1,
        [ATTRIBUTES_FIELD]: MAX_ATTRIBUTES_PER_POLL + 1,
      },
      // Bytes, not characters: room for the longest prompt in any script; the schema counts characters.
      maxFieldBytes: MAX_FEEDBACK_PROMPT_LENGTH * 4,
      tooManyFilesMessage: TOO_MANY_LOGOS,
      uploadRate: options.uploadRate,
    }),
    async (ctx) => {
      const { files, fields, repeatedFields } = receivedUpload(ctx);
      const choices = parseInput(CreateSessionFields, {
        ...fields,
        logoNames: repeatedFields[LOGO_NAMES_FIELD],
        channels: repeatedFields[CHANNELS_FIELD],
        attributes: repeatedFields[ATTRIBUTES_FIELD],
      });
      if (files.length === 0) throw new HttpError(400, NO_LOGOS);
      const { logoNames } = choices;
      if (logoNames && logoNames.length !== files.length) throw new HttpError(400, logoNamesCountMismatch(files.length, logoNames.length));
      const creatorToken = newCreatorToken();
      const created = await createPoll({
        files,
        logoNames,
        choices: {
          feedbackPrompt: choices.feedbackPrompt,
          logoOrder: choices.logoOrder,
          sharedNetwork: choices.sharedNetwork,
          resultsVisibility: choices.resultsVisibility,
          channels: choices.channels,
          attributes: choices.attributes,
        },
        creatorTokenHash: hashCreatorToken(creatorToken),
      });
      if (created.outcome === 'logo-refused') throw created.refusal;
      if (created.outcome === 'storage-failed') throw new HttpError(503, STORAGE_FAILED);
      const { poll } = created;
      // Where a creation's time goes (browsers' developer tools and the benchmark read it).
      ctx.set('Server-Timing', serverTiming(created.timing));
      const body: CreatedSessionWithCreatorToken & ResultsVisibilityState = {
        sessionId: poll.pollId,
        ...pollLinks(publicOrigin, poll.pollId),
        csrfToken: issueCsrfToken(ctx, csrfSecret, poll.pollId),
        logos: logosWithCounts(poll.logos, undefined),
        ...(poll.feedbackPrompt ? { feedbackPrompt: poll.feedbackPrompt } : {}),
        totalVotes: 0,
        ...(poll.logoOrder ? { logoOrder: poll.logoOrder } : {}),
        ...(poll.resultsVisibility ? { resultsVisibility: poll.resultsVisibility } : {}),
        ...(poll.channels ? { channels: poll.channels } : {}),
        ...(poll.attributes ? { attributes: poll.attributes } : {}),
        // Answered here only: the poll keeps its hash (docs/closing.md).
        creatorToken,
      };
      ctx.status = 201;
      ctx.set('Location', `/api/sessions/${poll.pollId}`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    },
  );

  router.get('/api/sessions/:sessionId', async (ctx) => {
    const { voter } = parseInput(SessionLookupQuery, ctx.query);
    const { poll, status } = pollOr404(await readLivePoll(ctx.params.sessionId));
    const counts = await voteCounts(poll._id);
    const csrfToken = issueCsrfToken(ctx, csrfSecret, poll._id);
    // Additive (docs/closing.md): only a closed poll says so, so an open poll's view is the spec's.
    const votingState = status.closedAt ? { closed: true, closedAt: status.closedAt.toISOString() } : {};
    // Results withheld from this viewer (docs/results-visibility.md): every count is 0, and the view says until when.
    const withheld = await resultsWithheldFrom(poll, viewerOf(ctx, poll._id), status);
    const visibility: ResultsVisibilityState = {
      ...(poll.resultsVisibility ? { resultsVisibility: poll.resultsVisibility } : {}),
      ...(withheld ? { resultsWithheldUntil: withheld } : {}),
    };
    const logos = logosWithCounts(poll.logos, withheld ? undefined : counts);
    const shuffled = poll.logoOrder === 'shuffled';
    const body: SessionViewWithVotingState & ModerationState & ResultsVisibilityState = status.hidden
      ? // Hidden pending review (docs/moderation.md): the spec's shape with nothing of the poll's content (no
        // logos, file names, counts or question) and `hidden: true`; the admin reviews it through /api/admin/.
        { sessionId: poll._id, logos: [], totalVotes: 0, csrfToken, ...votingState, hidden: true }
      : {
          sessionId: poll._id,
          logos,
          ...(poll.feedbackPrompt ? { feedbackPrompt: poll.feedbackPrompt } : {}),
          totalVotes: totalVotes(logos),
          csrfToken,
          ...(shuffled ? { logoOrder: 'shuffled' as const } : {}),
          ...(poll.channels?.length ? { channels: poll.channels.map(({ id, name }) => ({ id, name })) } : {}),
          ...(poll.attributes?.length ? { attributes: [...poll.attributes] } : {}),
          // The gateway asks for the order of the browser it writes the page for, to show its first logo.
          ...(shuffled && voter
            ? {
                voterOrder: voterLogoOrder(
                  poll._id,
                  voter,
                  logos.map((logo) => logo.id),
                ),
              }
            : {}),
          ...votingState,
          ...visibility,
        };
    // Counts change with every vote, and the token belongs to this browser.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.put('/api/sessions/:sessionId/plan', requireCsrf(csrfSecret), jsonBody(), async (ctx) => {
    const { paymentPlan } = parseJsonBody(ctx, SetPlanRequest);
    const sessionId = SessionId.safeParse(ctx.params.sessionId).data;
    // Only an active poll's status changes: a half-created poll, one being deleted or none is not found.
    if (!sessionId || !(await recordPaymentPlan(sessionId, paymentPlan))) throw pollNotFound();
    const body: SetPlanResponse = { sessionId, paymentPlan };
    ctx.body = body;
  });

  return router;
}
