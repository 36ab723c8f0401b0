import Router from '@koa/router';
import type { Context } from 'koa';
import {
  FINGERPRINT_HEADER,
  VOTE_PROOF_HEADER,
  VoteRequest,
  type MyVote,
  type ProofRequired,
  type VoteResponse,
} from '@logovote/contracts';
import { bindVoterCookie, currentVote, findActivePollOr404 } from '@logovote/models';
import { HttpError, jsonBody, parseJsonBody, requireCsrf } from '@logovote/service-kit';
import { castVote, type SeatPolicy } from '../cast-vote';
import { requireFingerprint } from '../fingerprint';
import { hashIp } from '../ip-hash';
import { PROOF_REQUIRED, type ProofOfWork } from '../proof-of-work';
import { identifyVoter, voterCookie, voterCookieHasher } from '../voter';
import { refuseVoteIfClosed, withdrawVoteIfClosedMeanwhile } from '../voting-closed';

export interface VotesRouteOptions {
  csrfSecret: string;
  ipHashSalt: string;
  seats: SeatPolicy;
  proofOfWork: ProofOfWork;
}

const MISSING_FINGERPRINT = `${FINGERPRINT_HEADER} header is required`;
/** The poll, if it may be voted on, with what voting needs of it. */
const findPoll = (sessionId: string | undefined) => findActivePollOr404(sessionId, ['logos']);

/** GET my-vote and POST vote under /api/sessions/{sessionId}. */
export function votesRouter(options: VotesRouteOptions): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });
  const hashCookie = voterCookieHasher(options.ipHashSalt);

  /** The voter of this request (see ../voter), issuing the voter cookie when the browser has none. */
  async function voterOf(ctx: Context, pollId: string, fingerprint: string) {
    const cookie = voterCookie(ctx);
    const cookieHash = hashCookie(pollId, cookie.value);
    const ipHash = hashIp(options.ipHashSalt, ctx.ip);
    const voter = await identifyVoter({ pollId, fingerprint, ipHash, ...(cookie.issued ? {} : { cookieHash }) });
    return { ...voter, cookieHash, ipHash };
  }

  router.get('/my-vote', async (ctx) => {
    const fingerprint = requireFingerprint(ctx, MISSING_FINGERPRINT);
    const poll = await findPoll(ctx.params.sessionId);
    const { voteId } = await voterOf(ctx, poll._id, fingerprint);
    const { logoId } = await currentVote(voteId);
    const body: MyVote = { hasVoted: logoId !== null, logoId };
    // Per visitor (by header and cookie), so no cache may keep it for the URL.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.post('/vote', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const fingerprint = requireFingerprint(ctx, MISSING_FINGERPRINT);
    const { logoId } = parseJsonBody(ctx, VoteRequest);
    const poll = await findPoll(ctx.params.sessionId);
    if (!poll.logos.some((logo) => logo.id === logoId)) throw new HttpError(400, 'This logo is not part of this voting session');
    await refuseVoteIfClosed(poll._id);
    const proof = ctx.get(VOTE_PROOF_HEADER);
    const proven = proof ? await options.proofOfWork.spend(proof, poll._id) : false;
    const voter = await voterOf(ctx, poll._id, fingerprint);
    const { outcome, written } = await castVote(
      { pollId: poll._id, voteId: voter.voteId, fingerprint, logoId, ipHash: voter.ipHash },
      options.seats,
      proven,
    );
    if (outcome === 'address-limit') {
      throw new HttpError(
        429,
        `Vote limit reached: at most ${options.seats.votersPerAddress} people can vote in this poll from the same network address. Votes already cast can still be changed.`,
      );
    }
    if (outcome === 'proof-required') {
      const body: ProofRequired = { message: PROOF_REQUIRED, challenge: await options.proofOfWork.challengeFor(poll._id) };
      ctx.status = 428;
      ctx.body = body;
      return;
    }
    await withdrawVoteIfClosedMeanwhile(poll._id, voter.voteId, logoId, written);
    // From now on this browser finds its vote from any address.
    if (!voter.bound) await bindVoterCookie(poll._id, voter.cookieHash, voter.voteId);
    const body: VoteResponse = { logoId };
    ctx.body = body;
  });

  return router;
}
