import Router from '@koa/router';
import {
  FINGERPRINT_HEADER,
  VOTE_PROOF_HEADER,
  VoteRequest,
  type MyVote,
  type ProofRequired,
  type VoteResponse,
} from '@logovote/contracts';
import { bindVoterCookie, currentVote, findActivePoll, reasonOf, voteChangeSignaller } from '@logovote/models';
import { HttpError, jsonBody, parseJsonBody, pollOr404, requireCsrf, type Logger } from '@logovote/service-kit';
import { castVote, type SeatPolicy } from '../cast-vote';
import { mirrorIntoChannel } from '../channel-vote';
import { requireFingerprint } from '../fingerprint';
import { PROOF_LEVEL_FULL, PROOF_REQUIRED, attemptsAt, type ProofCost, type ProofOfWork } from '../proof-of-work';
import { requestVoter } from '../voter';
import { refuseVoteIfClosed, withdrawVoteIfClosedMeanwhile } from '../voting-closed';

/** Which voters of an address pay a proof of work, and what it costs them. */
export interface AddressPolicy {
  seats: SeatPolicy;
  cost: ProofCost;
}

/** In any poll, and in one whose creator expects its voters on one shared network (cheaper). */
export interface AddressPolicies {
  standard: AddressPolicy;
  sharedNetwork: AddressPolicy;
}

export interface VotesRouteOptions {
  csrfSecret: string;
  ipHashSalt: string;
  addressPolicies: AddressPolicies;
  proofOfWork: ProofOfWork;
  logger: Logger;
}

export const UNKNOWN_CHANNEL = 'This channel is not part of this voting session';
export const MISSING_FINGERPRINT = `${FINGERPRINT_HEADER} header is required`;
/** The poll, if it may be voted on, with what voting needs of it; else the spec's 404. */
export async function pollToVoteOnOr404(sessionId: string | undefined) {
  return pollOr404(await findActivePoll(sessionId, ['logos', 'sharedNetwork', 'channels']));
}

/** GET my-vote and POST vote under /api/sessions/{sessionId}. */
export function votesRouter(options: VotesRouteOptions): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });
  const voterOf = requestVoter(options.ipHashSalt);
  const signalVoteChange = voteChangeSignaller();

  router.get('/my-vote', async (ctx) => {
    const fingerprint = requireFingerprint(ctx, MISSING_FINGERPRINT);
    const poll = await pollToVoteOnOr404(ctx.params.sessionId);
    const { voteId } = await voterOf(ctx, poll._id, fingerprint);
    const { logoId, rev } = await currentVote(voteId);
    // The reason given for this vote, so the page can show it for editing (docs/reasons.md).
    const reason = logoId === null ? undefined : await reasonOf(voteId, rev);
    const body: MyVote = { hasVoted: logoId !== null, logoId, ...(reason === undefined ? {} : { reason }) };
    // Per visitor (by header and cookie), so no cache may keep it for the URL.
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  router.post('/vote', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const fingerprint = requireFingerprint(ctx, MISSING_FINGERPRINT);
    const { logoId, via } = parseJsonBody(ctx, VoteRequest);
    const poll = await pollToVoteOnOr404(ctx.params.sessionId);
    if (!poll.logos.some((logo) => logo.id === logoId)) throw new HttpError(400, 'This logo is not part of this voting session');
    const channels = poll.channels ?? [];
    if (via !== undefined && !channels.some((channel) => channel.id === via)) throw new HttpError(400, UNKNOWN_CHANNEL);
    const voter = await voterOf(ctx, poll._id, fingerprint);
    // The first look at the poll's status and the voter's vote, together.
    const [, current] = await Promise.all([refuseVoteIfClosed(poll._id), currentVote(voter.voteId)]);
    const policy = poll.sharedNetwork ? options.addressPolicies.sharedNetwork : options.addressPolicies.standard;
    const proof = ctx.get(VOTE_PROOF_HEADER);
    const provenLevel = proof ? await options.proofOfWork.spend(proof, poll._id) : 0;
    const cast = await castVote(
      { pollId: poll._id, voteId: voter.voteId, fingerprint, logoId, ipHash: voter.ipHash, channel: via },
      policy.seats,
      provenLevel,
      current,
    );
    if (cast.outcome === 'address-limit') {
      throw new HttpError(
        429,
        `Vote limit reached: at most ${policy.seats.votersPerAddress} people can vote in this poll from the same network address. Votes already cast can still be changed.`,
      );
    }
    if (cast.outcome === 'proof-required') {
      const { level } = cast;
      const attempts = attemptsAt(policy.cost, level);
      const body: ProofRequired = {
        message: provenLevel > 0 ? PROOF_LEVEL_FULL : PROOF_REQUIRED,
        level,
        attempts,
        challenge: await options.proofOfWork.challengeFor(poll._id, level, attempts),
      };
      ctx.status = 428;
      ctx.body = body;
      return;
    }
    // A poll without channels spends nothing here (docs/channels.md).
    const channelTally =
      channels.length > 0 && cast.written ? await mirrorIntoChannel(poll._id, voter.voteId, logoId, cast.written) : undefined;
    await Promise.all([
      withdrawVoteIfClosedMeanwhile(poll._id, voter.voteId, logoId, cast.written, channelTally),
      // From now on this browser finds its vote from any address (this voter's, whether or not the poll still takes votes).
      voter.bound ? undefined : bindVoterCookie(poll._id, voter.cookieHash, voter.voteId),
    ]);
    // Live results pages learn of the change from this signal (docs/live-results.md). The vote stands without
    // it: those pages then show it with the next vote's update or on reload.
    await signalVoteChange(poll._id).catch((error: unknown) => options.logger.warn({ err: error }, 'live results signal not written'));
    const body: VoteResponse = { logoId };
    ctx.body = body;
  });

  return router;
}
