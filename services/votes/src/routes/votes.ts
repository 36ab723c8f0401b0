import Router from '@koa/router';
import { FINGERPRINT_HEADER, VoteRequest, type MyVote, type VoteResponse } from '@logovote/contracts';
import { currentVote, findActivePollOr404, voteId } from '@logovote/models';
import { HttpError, jsonBody, parseJsonBody, requireCsrf } from '@logovote/service-kit';
import { castVote } from '../cast-vote';
import { requireFingerprint } from '../fingerprint';
import { hashIp } from '../ip-hash';

export interface VotesRouteOptions {
  csrfSecret: string;
  ipHashSalt: string;
  votersPerAddress: number;
}

const MISSING_FINGERPRINT = `${FINGERPRINT_HEADER} header is required`;
/** The poll, if it may be voted on, with what voting needs of it. */
const findPoll = (sessionId: string | undefined) => findActivePollOr404(sessionId, ['logos']);

/** GET my-vote and POST vote under /api/sessions/{sessionId}. */
export function votesRouter(options: VotesRouteOptions): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });

  router.get('/my-vote', async (ctx) => {
    const fingerprint = requireFingerprint(ctx, MISSING_FINGERPRINT);
    const poll = await findPoll(ctx.params.sessionId);
    const { logoId } = await currentVote(voteId(poll._id, fingerprint));
    const body: MyVote = { hasVoted: logoId !== null, logoId };
    // Per visitor (by header), so no cache may keep it for the URL.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.post('/vote', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const fingerprint = requireFingerprint(ctx, MISSING_FINGERPRINT);
    const { logoId } = parseJsonBody(ctx, VoteRequest);
    const poll = await findPoll(ctx.params.sessionId);
    if (!poll.logos.some((logo) => logo.id === logoId)) throw new HttpError(400, 'This logo is not part of this voting session');
    const outcome = await castVote(
      { pollId: poll._id, fingerprint, logoId, ipHash: hashIp(options.ipHashSalt, ctx.ip) },
      options.votersPerAddress,
    );
    if (outcome === 'address-limit') {
      throw new HttpError(
        429,
        `Vote limit reached: at most ${options.votersPerAddress} people can vote in this poll from the same network address. Votes already cast can still be changed.`,
      );
    }
    const body: VoteResponse = { logoId };
    ctx.body = body;
  });

  return router;
}
