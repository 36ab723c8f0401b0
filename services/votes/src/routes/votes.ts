import Router from '@koa/router';
import { POLL_HIDDEN, VOTE_PROOF_HEADER, VOTING_CLOSED, VoteRequest, type ProofRequired, type VoteResponse } from '@logovote/contracts';
import { livePolls, type VoteChangeSignals } from '@logovote/models';
import { HttpError, jsonBody, parseJsonBody, pollNotFound, requireCsrf } from '@logovote/service-kit';
import { PROOF_INVALID, PROOF_LEVEL_FULL, PROOF_REQUIRED, PROOF_SPENT, type ProofOfWork } from '../proof-of-work';
import { voteCaster, type AddressPolicies, type CastVoteOutcome, type VotingRefusal } from '../use-cases/cast-vote';
import { myVoteReader } from '../use-cases/my-vote';
import { voterRequests } from './voter-request';

export interface VotesRouteOptions {
  csrfSecret: string;
  ipHashSalt: string;
  addressPolicies: AddressPolicies;
  proofOfWork: ProofOfWork;
  voteSignals: VoteChangeSignals;
}

export const UNKNOWN_LOGO = 'This logo is not part of this voting session';
export const UNKNOWN_CHANNEL = 'This channel is not part of this voting session';
/** The 409 messages of a poll that takes no votes now. */
export const VOTING_REFUSED: Record<VotingRefusal, string> = { 'voting-closed': VOTING_CLOSED, 'poll-hidden': POLL_HIDDEN };

const addressLimitReached = (votersPerAddress: number) =>
  `Vote limit reached: at most ${votersPerAddress} people can vote in this poll from the same network address. Votes already cast can still be changed.`;

/** A vote that was not recorded, as the spec answers it. */
function voteRefusal(cast: Exclude<CastVoteOutcome, { outcome: 'recorded' | 'proof-required' }>): HttpError {
  switch (cast.outcome) {
    case 'poll-not-found':
      return pollNotFound();
    case 'unknown-logo':
      return new HttpError(400, UNKNOWN_LOGO);
    case 'unknown-channel':
      return new HttpError(400, UNKNOWN_CHANNEL);
    case 'invalid-proof':
      return new HttpError(400, cast.problems ?? PROOF_INVALID);
    case 'proof-spent':
      return new HttpError(409, PROOF_SPENT);
    case 'address-limit':
      return new HttpError(429, addressLimitReached(cast.votersPerAddress));
    default:
      return new HttpError(409, VOTING_REFUSED[cast.outcome]);
  }
}

/** GET my-vote and POST vote under /api/sessions/{sessionId}. */
export function votesRouter(options: VotesRouteOptions): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });
  // One view for both: a poll's content read by one is kept for the other.
  const polls = livePolls();
  const caster = voteCaster({ ...options, livePolls: polls });
  const readMyVote = myVoteReader(options.ipHashSalt, polls.read);
  const voters = voterRequests(options.ipHashSalt);

  router.get('/my-vote', async (ctx) => {
    const { sessionId } = ctx.params;
    const found = await readMyVote(sessionId, voters.cluesOf(ctx, sessionId));
    if (!found) throw pollNotFound();
    if (found.newPass) voters.issuePass(ctx, found.newPass);
    // Per visitor (by header and cookie), so no cache may keep it for the URL.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = found.mine;
  });

  router.post('/vote', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const { sessionId } = ctx.params;
    const voter = voters.cluesOf(ctx, sessionId);
    const { logoId, via } = parseJsonBody(ctx, VoteRequest);
    const cast = await caster({ sessionId, logoId, via, proof: ctx.get(VOTE_PROOF_HEADER), voter });
    if (cast.outcome === 'recorded') {
      if (cast.newPass) voters.issuePass(ctx, cast.newPass);
      const body: VoteResponse = { logoId: cast.logoId };
      ctx.body = body;
    } else if (cast.outcome === 'proof-required') {
      const { level, attempts, challenge } = cast;
      const body: ProofRequired = { message: cast.proofWasValid ? PROOF_LEVEL_FULL : PROOF_REQUIRED, level, attempts, challenge };
      ctx.status = 428;
      ctx.body = body;
    } else {
      throw voteRefusal(cast);
    }
  });

  return router;
}
