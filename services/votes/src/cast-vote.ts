import {
  VoterSeatModel,
  claimOnce,
  currentVote,
  dropReasons,
  seatRow,
  seatsOfAddress,
  voteLedger,
  type CurrentVote,
} from '@logovote/models';

export interface Ballot {
  pollId: string;
  /** The voter (see ./voter). */
  voteId: string;
  fingerprint: string;
  logoId: string;
  ipHash: string;
  /** The channel the voter came through (docs/channels.md): kept on its seat, so it counts with the first vote only. */
  channel?: string | undefined;
}

/**
 * How many voters an address may bring to a poll, and which of them pay a proof of work. Seats are
 * numbered from 0 in the order addresses fill them; past the free ones they come in levels of
 * `seatsPerLevel`, and a proof of work of level L (./proof-of-work: its cost grows with L) may take any
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
export type CastResult =
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
 * requests race: the unique {pollId, ipHash, ipSlot} index refuses a seat taken twice. It tries a random
 * seat of its level first (the seats below are usually taken, and voters of one level spread over its
 * seats, so this usually takes one insert and no read); after a refusal it reads which seats are free.
 * Resolves 'taken' when this request took it, 'seated' when another request of the same voter did, 'full'
 * when no seat is free.
 */
async function takeSeat(ballot: Ballot, seats: { first: number; end: number }): Promise<'taken' | 'seated' | 'full'> {
  const { voteId: id } = ballot;
  if (seats.end === 0) return 'full';
  let ipSlot = Math.min(seats.first + Math.floor(Math.random() * (seats.end - seats.first)), seats.end - 1);
  for (let attempt = 0; attempt <= seats.end; attempt++) {
    if (await claimOnce(VoterSeatModel, seatRow({ ...ballot, ipSlot }))) return 'taken';
    // Another request of the same voter seated it meanwhile, or a stopped one did before.
    if (await VoterSeatModel.exists({ _id: id })) return 'seated';
    const freeSeat = randomOf(await freeSeats(ballot, seats.end));
    if (freeSeat === undefined) return 'full';
    ipSlot = freeSeat;
  }
  throw new Error(`takeSeat: no seat after ${seats.end + 1} attempts`);
}

/** Why a voter found no seat: the address is at the cap, or the first free seat needs a proof of a level above the voter's. */
async function refusal(ballot: Ballot, policy: SeatPolicy, provenLevel: number): Promise<CastResult> {
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
 * what counts. `known` is the voter's vote as the caller read it just before (saves a read).
 *
 * When another request of the same voter wrote the same revision first, this ballot is taken as cast
 * just before that one and replaced by it, so the voter's last vote wins and nothing waits.
 */
export async function castVote(ballot: Ballot, policy: SeatPolicy, provenLevel = 0, known?: CurrentVote): Promise<CastResult> {
  const id = ballot.voteId;
  let seatChannel: { seatChannel?: string | null } = {};
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = round === 0 && known ? known : await currentVote(id);
    if (current.logoId === ballot.logoId) return { outcome: 'recorded' };
    if (!current.seated) {
      const seat = await takeSeat(ballot, seatsOfLevel(policy, provenLevel));
      if (seat === 'full') return refusal(ballot, policy, provenLevel);
      if (seat === 'taken') seatChannel = { seatChannel: ballot.channel ?? null };
    }
    const rev = current.rev + 1;
    // A reason explains the choice it was given for (docs/reasons.md): it goes when the vote changes.
    // Dropped before the change, so a request stopped after it leaves no stale reason, and again after
    // it, for a reason that was being added meanwhile (that request looks for this revision afterwards).
    if (current.logoId !== null) await dropReasons(id, current.rev);
    const written = await voteLedger.append({ tally: ballot.pollId, member: id, rev, from: current.logoId, to: ballot.logoId });
    if (current.logoId !== null) await dropReasons(id, current.rev);
    if (written) return { outcome: 'recorded', written: { rev, from: current.logoId, ...seatChannel } };
    const winner = (await voteLedger.revisions(id)).find((revision) => revision.rev === rev);
    if (winner?.to) return { outcome: 'recorded' };
    // the other request's vote was withdrawn: this one goes on from there
  }
  throw new Error(`castVote: voter ${id} kept changing during ${MAX_ROUNDS} rounds`);
}
