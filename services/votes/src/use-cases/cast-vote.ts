import type { VoteChallenge } from '@logovote/contracts';
import {
  VoterSeatModel,
  channelLedger,
  channelOfVoter,
  channelTally,
  claimOnce,
  currentVote,
  dropReasons,
  findActivePoll,
  readPollStatus,
  removeVoteData,
  seatRow,
  seatsOfAddress,
  voteLedger,
  type CurrentVote,
  type LivePolls,
  type PollStatus,
  type VoteChangeSignals,
} from '@logovote/models';
import { attemptsAt, type ProofCost, type ProofOfWork } from '../proof-of-work';
import { voterFinder, type NewVoterPass, type VoterClues } from '../voter';

export interface Ballot {
  pollId: string;
  /** The voter (see ../voter). */
  voterKey: string;
  fingerprint: string;
  logoId: string;
  ipHash: string;
  /** The channel the voter came through (docs/channels.md): kept on its seat, so it counts with the first vote only. */
  channel?: string | undefined;
}

/**
 * How many voters an address may bring to a poll, and which of them pay a proof of work. Seats are
 * numbered from 0 in the order addresses fill them; past the free ones they come in levels of
 * `seatsPerLevel`, and a proof of work of level L (../proof-of-work: its cost grows with L) may take any
 * free seat up to the last one of level L.
 */
export interface SeatPolicy {
  /** A last resort: no address seats more voters than this in one poll, whatever it pays. */
  votersPerAddress: number;
  /** How many of them need no proof of work: seats 0..this-1. */
  seatsWithoutProof: number;
  seatsPerLevel: number;
}

/** The proof-of-work level a seat needs: 0 for the free seats, then 1, 2, ... one per `seatsPerLevel` seats. */
export function levelOfSeat(policy: SeatPolicy, seat: number): number {
  return seat < policy.seatsWithoutProof ? 0 : Math.floor((seat - policy.seatsWithoutProof) / policy.seatsPerLevel) + 1;
}

/** The seats a voter with a proof of `level` (0: none) may take: from the first of its level to its last. */
function seatsOfLevel(policy: SeatPolicy, level: number): { first: number; end: number } {
  const first = level === 0 ? 0 : policy.seatsWithoutProof + (level - 1) * policy.seatsPerLevel;
  const end = Math.min(policy.seatsWithoutProof + level * policy.seatsPerLevel, policy.votersPerAddress);
  return { first: Math.min(first, end), end };
}

/**
 * The ledger revision a ballot wrote, and the logo it changed the vote from; `seatChannel` when this
 * ballot took the voter's seat: the channel it took it with (null: none).
 */
export interface WrittenRevision {
  rev: number;
  from: string | null;
  seatChannel?: string | null;
}

/**
 * How a ballot went: recorded, with the ledger revision it wrote (none: the vote already was this one);
 * refused at the address's cap; or refused until a proof of work of `level` comes with it.
 */
export type BallotResult =
  | { outcome: 'recorded'; written?: WrittenRevision }
  | { outcome: 'address-limit'; written?: undefined }
  | { outcome: 'proof-required'; level: number; written?: undefined };

/** The seats of the address below `end` nobody holds yet in this poll, lowest first. */
async function freeSeats(ballot: Ballot, end: number): Promise<number[]> {
  const takenSlots = new Set(await seatsOfAddress(ballot.pollId, ballot.ipHash));
  const free: number[] = [];
  for (let slot = 0; slot < end; slot++) if (!takenSlots.has(slot)) free.push(slot);
  return free;
}

const randomOf = (values: number[]) => values[Math.floor(Math.random() * values.length)];

/**
 * Gives the voter one of the seats below `seats.end` of its address (its seat row), exactly, however many
 * requests race: the unique {pollId, ipHash, seat} index refuses a seat taken twice. It tries a random
 * seat of its level first (the seats below are usually taken, and voters of one level spread over its
 * seats, so this usually takes one insert and no read); after a refusal it reads which seats are free.
 * Resolves 'taken' when this request took it, 'seated' when another request of the same voter did, 'full'
 * when no seat is free.
 */
async function takeSeat(ballot: Ballot, seats: { first: number; end: number }): Promise<'taken' | 'seated' | 'full'> {
  const { voterKey: id } = ballot;
  if (seats.end === 0) return 'full';
  let seat = Math.min(seats.first + Math.floor(Math.random() * (seats.end - seats.first)), seats.end - 1);
  for (let attempt = 0; attempt <= seats.end; attempt++) {
    if (await claimOnce(VoterSeatModel, seatRow({ ...ballot, seat }))) return 'taken';
    // Another request of the same voter seated it meanwhile, or a stopped one did before.
    if (await VoterSeatModel.exists({ _id: id })) return 'seated';
    const freeSeat = randomOf(await freeSeats(ballot, seats.end));
    if (freeSeat === undefined) return 'full';
    seat = freeSeat;
  }
  throw new Error(`takeSeat: no seat after ${seats.end + 1} attempts`);
}

/** Why a voter found no seat: the address is at the cap, or the first free seat needs a proof of a level above the voter's. */
async function refusal(ballot: Ballot, policy: SeatPolicy, provenLevel: number): Promise<BallotResult> {
  const [lowest] = await freeSeats(ballot, policy.votersPerAddress);
  if (lowest === undefined) return { outcome: 'address-limit' };
  // Seats are not given back, so the first free one is above the voter's level; the maximum covers a race with a withdrawal.
  return { outcome: 'proof-required', level: Math.max(levelOfSeat(policy, lowest), provenLevel + 1) };
}

/** How often a request starts over after a concurrent request of the same voter withdrew a vote. */
const MAX_ROUNDS = 5;

/**
 * Records a ballot: one vote per voter per poll (voting again changes it), and at most
 * `votersPerAddress` distinct voters per address per poll, exactly, however many requests race; a new
 * voter beyond the first `seatsWithoutProof` of its address needs a proof of work, of a level whose
 * seats are not all taken (`provenLevel`: the level of the proof the ballot carries, 0 for none).
 *
 * A new voter takes a seat first (none left: refused, nothing written). The vote is then the voter's
 * next revision in the vote ledger (see @logovote/models' vote-ledger): that insert decides, and it is
 * what counts. `returning`: the browser's voter pass named the voter, so it has voted here before and its
 * vote is read first; any other voter is most likely new, so its seat is tried first, and only a voter
 * found seated already reads its vote (a voter with revisions holds a seat, so one that takes its seat
 * now has none).
 *
 * When another request of the same voter wrote the same revision first, this ballot is taken as cast
 * just before that one and replaced by it, so the voter's last vote wins and nothing waits.
 */
export async function recordBallot(ballot: Ballot, policy: SeatPolicy, provenLevel = 0, returning = true): Promise<BallotResult> {
  const id = ballot.voterKey;
  const seats = seatsOfLevel(policy, provenLevel);
  let seatChannel: { seatChannel?: string | null } = {};
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let current: CurrentVote | undefined;
    if (round === 0 && !returning && seats.end > 0) {
      const seat = await takeSeat(ballot, seats);
      if (seat === 'full') return refusal(ballot, policy, provenLevel);
      if (seat === 'taken') seatChannel = { seatChannel: ballot.channel ?? null };
      current = seat === 'taken' ? { rev: 0, logoId: null, seated: true } : { ...(await currentVote(id)), seated: true };
    }
    current ??= await currentVote(id);
    if (current.logoId === ballot.logoId) return { outcome: 'recorded' };
    if (!current.seated) {
      const seat = await takeSeat(ballot, seats);
      if (seat === 'full') return refusal(ballot, policy, provenLevel);
      if (seat === 'taken') seatChannel = { seatChannel: ballot.channel ?? null };
    }
    const rev = current.rev + 1;
    // A reason explains the choice it was given for (docs/reasons.md): it goes when the vote changes. Twice,
    // and both are needed: before the change, so a request stopped after it leaves no stale reason; after it,
    // for a reason stored between the first drop and this revision (that request looks for this revision afterwards).
    if (current.logoId !== null) await dropReasons(id, current.rev);
    const written = await voteLedger.append({ tally: ballot.pollId, member: id, rev, from: current.logoId, to: ballot.logoId });
    if (current.logoId !== null) await dropReasons(id, current.rev);
    if (written) return { outcome: 'recorded', written: { rev, from: current.logoId, ...seatChannel } };
    const winner = (await voteLedger.revisions(id)).find((revision) => revision.rev === rev);
    if (winner?.to) return { outcome: 'recorded' };
    // the other request's vote was withdrawn: this one goes on from there
  }
  throw new Error(`recordBallot: voter ${id} kept changing during ${MAX_ROUNDS} rounds`);
}

/**
 * Mirrors a vote ledger revision into the channel tally of the voter's channel (docs/channels.md): the
 * same revision number, from and to, so of racing requests of one voter each mirrors only the revision
 * it wrote itself and the channel's counts stay exact. The channel is the one the voter's seat was taken
 * with: known when this request took it, else one lookup of the seat. Resolves with the channel tally
 * written, or undefined for a voter of the plain link.
 */
async function mirrorIntoChannel(pollId: string, voterKey: string, logoId: string, written: WrittenRevision): Promise<string | undefined> {
  const channel = written.seatChannel !== undefined ? written.seatChannel : await channelOfVoter(voterKey);
  if (channel === null) return undefined;
  const tally = channelTally(pollId, channel);
  await channelLedger.append({ tally, member: voterKey, rev: written.rev, from: written.from, to: logoId });
  return tally;
}

/** Why a poll takes no votes now: closed by its creator (docs/closing.md), or hidden pending review (docs/moderation.md). */
export type VotingRefusal = 'voting-closed' | 'poll-hidden';

/** Why a poll with this status takes no votes, if it does not. */
function refusalOf(status: Pick<PollStatus, 'closed' | 'hidden'>): VotingRefusal | undefined {
  if (status.closed) return 'voting-closed';
  if (status.hidden) return 'poll-hidden';
  return undefined;
}

/** Why the poll takes no votes now, if it does not: one read of its status. */
export async function votingRefusal(pollId: string): Promise<VotingRefusal | undefined> {
  return refusalOf(await readPollStatus(pollId));
}

/**
 * The second look, after a vote was written: a vote is acknowledged only if the poll still took votes
 * once its ledger revision was in, so every acknowledged vote was written before the close (or the
 * hiding) was recorded. A vote that finds the poll closed or hidden now takes its own revision back (the
 * voter's next revision returns to the logo before it) and is refused. The unique key of that next
 * revision leaves alone a newer revision of the same voter (another request of it, which decides for
 * itself); a request that wrote nothing (the same logo again) leaves the vote from before.
 * A vote that finds the poll being deleted, or gone, removes the poll's vote data itself: the deletion may
 * have removed it before this vote was written, and looks no more once the poll is gone. `status`: the
 * poll's status as read after the vote was written.
 */
export async function withdrawVoteIfStoppedMeanwhile(
  status: PollStatus,
  pollId: string,
  voterKey: string,
  logoId: string,
  written: WrittenRevision | undefined,
  /** The channel tally the vote was mirrored into (docs/channels.md): the withdrawal is mirrored there too. */
  channelTallyWritten?: string,
): Promise<VotingRefusal | 'poll-not-found' | undefined> {
  if (status.state !== 'active') {
    await removeVoteData(pollId);
    return 'poll-not-found';
  }
  const refusal = refusalOf(status);
  if (refusal && written) {
    const withdrawal = { member: voterKey, rev: written.rev + 1, from: logoId, to: written.from };
    if ((await voteLedger.append({ tally: pollId, ...withdrawal })) && channelTallyWritten)
      await channelLedger.append({ tally: channelTallyWritten, ...withdrawal });
  }
  return refusal;
}

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

export interface CastVoteDeps {
  ipHashSalt: string;
  addressPolicies: AddressPolicies;
  proofOfWork: ProofOfWork;
  /** The process's view of the polls (shared with my-vote): their content and the status of its last look. */
  livePolls: LivePolls;
  /** The process's live-results signaller (docs/live-results.md). */
  voteSignals: VoteChangeSignals;
}

export interface CastVoteRequest {
  sessionId: string | undefined;
  logoId: string;
  /** The channel the voter came through (docs/channels.md). */
  via?: string | undefined;
  /** The proof of work the vote carries (the X-Vote-Proof header), '' for none. */
  proof: string;
  voter: VoterClues;
}

/** How a vote went. Nothing of a refused vote stays written. */
export type CastVoteOutcome =
  | { outcome: 'recorded'; logoId: string; newPass?: NewVoterPass }
  | { outcome: 'poll-not-found' }
  | { outcome: 'unknown-logo' }
  | { outcome: 'unknown-channel' }
  | { outcome: VotingRefusal }
  | { outcome: 'address-limit'; votersPerAddress: number }
  /** A new voter past the address's free seats: solve `challenge` (`attempts` on average) and vote again with it. */
  | { outcome: 'proof-required'; level: number; attempts: number; challenge: VoteChallenge; proofWasValid: boolean }
  /** The proof is not a solution of a challenge for this poll; `problems`: what is wrong with its shape. */
  | { outcome: 'invalid-proof'; problems?: string }
  | { outcome: 'proof-spent' };

/** The poll, if it may be voted on, with what voting needs of it. */
export const pollToVoteOn = (sessionId: string | undefined) => findActivePoll(sessionId, ['logos', 'sharedNetwork', 'channels']);

/**
 * Casting a vote, the whole use case (docs/vote-counts.md, "A vote's path"): the poll and the ballot
 * checked, the voter found, a seat of its address taken (past the free ones, for a proof of work), the
 * vote written as the voter's next ledger revision and mirrored into its channel, taken back when voting
 * stopped meanwhile, and open results pages signalled. Answers a typed outcome, with the voter the browser's
 * pass is to name; the route maps it to HTTP.
 *
 * The first look at the poll's status is the one the process kept from its last look while that said the
 * poll takes votes (LivePolls' readToVoteOn): the second look, after the write, decides whether a vote
 * stands, and a ballot refused before it looks again first, so every outcome is the one a fresh first look
 * would give.
 */
export function voteCaster(deps: CastVoteDeps): (request: CastVoteRequest) => Promise<CastVoteOutcome> {
  const findVoter = voterFinder(deps.ipHashSalt);

  return async ({ sessionId, logoId, via, proof, voter: clues }) => {
    const found = await deps.livePolls.readToVoteOn(sessionId);
    if (!found) return { outcome: 'poll-not-found' };
    const { poll, status } = found;
    /** Before refusing a ballot for its own sake: whether the poll's status refuses it now (looked at again if the first look was kept). */
    const stoppedSinceKept = async (): Promise<CastVoteOutcome | undefined> => {
      if (!found.kept) return undefined;
      const now = await deps.livePolls.lookAgain(poll._id);
      if (now.state !== 'active') return { outcome: 'poll-not-found' };
      const stoppedNow = refusalOf(now);
      return stoppedNow && { outcome: stoppedNow };
    };
    if (!poll.logos.some((logo) => logo.id === logoId)) return { outcome: 'unknown-logo' };
    const channels = poll.channels ?? [];
    if (via !== undefined && !channels.some((channel) => channel.id === via)) return { outcome: 'unknown-channel' };
    const stopped = refusalOf(status);
    if (stopped) return { outcome: stopped };
    const voter = findVoter(poll._id, clues);
    const policy = poll.sharedNetwork ? deps.addressPolicies.sharedNetwork : deps.addressPolicies.standard;
    const spent = proof ? await deps.proofOfWork.spend(proof, poll._id) : { level: 0 };
    if ('refused' in spent)
      return (
        (await stoppedSinceKept()) ??
        (spent.refused === 'spent' ? { outcome: 'proof-spent' } : { outcome: 'invalid-proof', problems: spent.problems })
      );
    const ballot = {
      pollId: poll._id,
      voterKey: voter.voterKey,
      fingerprint: clues.fingerprint,
      logoId,
      ipHash: voter.ipHash,
      channel: via,
    };
    const cast = await recordBallot(ballot, policy.seats, spent.level, voter.passed);
    if (cast.outcome === 'address-limit')
      return (await stoppedSinceKept()) ?? { outcome: 'address-limit', votersPerAddress: policy.seats.votersPerAddress };
    if (cast.outcome === 'proof-required') {
      const stoppedNow = await stoppedSinceKept();
      if (stoppedNow) return stoppedNow;
      const attempts = attemptsAt(policy.cost, cast.level);
      const challenge = await deps.proofOfWork.challengeFor(poll._id, cast.level, attempts);
      return { outcome: 'proof-required', level: cast.level, attempts, challenge, proofWasValid: spent.level > 0 };
    }
    // A poll without channels spends nothing here (docs/channels.md).
    const mirrored =
      channels.length > 0 && cast.written ? await mirrorIntoChannel(poll._id, voter.voterKey, logoId, cast.written) : undefined;
    const statusNow = await deps.livePolls.lookAgain(poll._id);
    const refusedMeanwhile = await withdrawVoteIfStoppedMeanwhile(statusNow, poll._id, voter.voterKey, logoId, cast.written, mirrored);
    if (refusedMeanwhile) return { outcome: refusedMeanwhile };
    // Live results pages learn of the change from this signal, written with the process's next batch (docs/live-results.md).
    deps.voteSignals.changed(poll._id);
    return { outcome: 'recorded', logoId, ...(voter.passed ? {} : { newPass: { pollId: poll._id, voterKey: voter.voterKey } }) };
  };
}
