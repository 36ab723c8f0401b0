import {
  VoteLedgerModel,
  VoteModel,
  appendLedgerEntry,
  currentVote,
  dropReasons,
  isDuplicateKey,
  ledgerEntryId,
  syncVoteRow,
} from '@logovote/models';

export interface Ballot {
  pollId: string;
  /** The voter (see ./voter). */
  voteId: string;
  fingerprint: string;
  logoId: string;
  ipHash: string;
}

/** How many voters an address may bring to a poll. */
export interface SeatPolicy {
  votersPerAddress: number;
  /** How many of them need no proof of work: seats 0..this-1; the others only with a proof. */
  seatsWithoutProof: number;
}

export type CastOutcome = 'recorded' | 'address-limit' | 'proof-required';

/** How a ballot went, and the ledger revision it wrote when it was recorded by writing one (none: the vote already was this one). */
export interface CastResult {
  outcome: CastOutcome;
  written?: { rev: number; from: string | null };
}

/** The seats below `seats` of the address nobody holds yet in this poll. */
async function freeSeats(ballot: Ballot, seats: number): Promise<number[]> {
  const taken = await VoteModel.find({ pollId: ballot.pollId, ipHash: ballot.ipHash }, { ipSlot: 1, _id: 0 }).lean();
  const takenSlots = new Set(taken.map((vote) => vote.ipSlot));
  const free: number[] = [];
  for (let slot = 0; slot < seats; slot++) if (!takenSlots.has(slot)) free.push(slot);
  return free;
}

const randomOf = (values: number[]) => values[Math.floor(Math.random() * values.length)];

/**
 * Gives the voter one of the first `seats` seats of its address (a vote row), exactly, however many
 * requests race: the unique {pollId, ipHash, ipSlot} index refuses a seat taken twice. It tries a
 * random seat first (an address rarely holds more than a few voters, so this usually takes one write
 * and no read); after a refusal it reads which seats are free. Resolves 'seated' when this request
 * wrote the row, 'joined' when another request of the same voter did, 'full' when no seat is free.
 */
async function takeSeat(ballot: Ballot, rev: number, seats: number): Promise<'seated' | 'joined' | 'full'> {
  const { voteId: id, ...row } = ballot;
  let ipSlot = Math.floor(Math.random() * seats);
  for (let attempt = 0; attempt <= seats; attempt++) {
    try {
      await VoteModel.create({ _id: id, ...row, ipSlot, rev });
      return 'seated';
    } catch (error: unknown) {
      if (!isDuplicateKey(error)) throw error;
    }
    // Another request of the same voter seated it meanwhile.
    if (await VoteModel.exists({ _id: id })) return 'joined';
    const freeSeat = randomOf(await freeSeats(ballot, seats));
    if (freeSeat === undefined) return 'full';
    ipSlot = freeSeat;
  }
  throw new Error(`takeSeat: no seat after ${seats + 1} attempts`);
}

/** Why a voter found no seat: the address is at the cap, or only seats that need a proof of work are left. */
async function refusal(ballot: Ballot, policy: SeatPolicy, proven: boolean): Promise<'address-limit' | 'proof-required'> {
  if (proven || policy.seatsWithoutProof >= policy.votersPerAddress) return 'address-limit';
  return (await freeSeats(ballot, policy.votersPerAddress)).length > 0 ? 'proof-required' : 'address-limit';
}

/** How often a request starts over after a concurrent request of the same voter withdrew a vote. */
const MAX_ROUNDS = 5;

/**
 * Records a ballot: one vote per voter per poll (voting again changes it), and at most
 * `votersPerAddress` distinct voters per address per poll, exactly, however many requests race; a new
 * voter beyond the first `seatsWithoutProof` of its address needs a proof of work (`proven`).
 *
 * The vote goes into the ledger first, as the voter's next revision (see @logovote/models'
 * vote-ledger): that insert is what decides, and it is what counts. A voter without a seat then takes
 * one; with none left, the vote is withdrawn by the revision after it. Last, the vote row copies the
 * newest revision.
 *
 * When another request of the same voter wrote the same revision first, this ballot is taken as cast
 * just before that one and replaced by it, so the voter's last vote wins and nothing waits.
 */
export async function castVote(ballot: Ballot, policy: SeatPolicy, proven = false): Promise<CastResult> {
  const id = ballot.voteId;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await currentVote(id);
    if (current.logoId === ballot.logoId && current.seated) {
      await syncVoteRow(id);
      return { outcome: 'recorded' };
    }
    const rev = current.rev + 1;
    // A reason explains the choice it was given for (docs/reasons.md): it goes when the vote changes.
    // Dropped before the change, so a request stopped after it leaves no stale reason, and again after
    // it, for a reason that was being added meanwhile (that request looks for this revision afterwards).
    if (current.logoId !== null) await dropReasons(id, current.rev);
    const entry = { rev, from: current.countedLogoId };
    const written = await appendLedgerEntry({ pollId: ballot.pollId, voteId: id, ...entry, to: ballot.logoId });
    if (current.logoId !== null) await dropReasons(id, current.rev);
    if (!written) {
      const winner = await VoteLedgerModel.findById(ledgerEntryId(id, rev), { to: 1 }).lean();
      if (winner?.to) return { outcome: 'recorded' };
      continue; // the other request's vote was withdrawn: this one may still find a seat
    }
    if (!current.seated) {
      const seat = await takeSeat(
        ballot,
        rev,
        proven ? policy.votersPerAddress : Math.min(policy.seatsWithoutProof, policy.votersPerAddress),
      );
      if (seat === 'full') {
        // Withdrawn by the next revision; if another request of this voter wrote that one, it carries on from ours.
        await appendLedgerEntry({ pollId: ballot.pollId, voteId: id, rev: rev + 1, from: ballot.logoId, to: null });
        return { outcome: await refusal(ballot, policy, proven) };
      }
      // A seat written with this revision is current unless another request of this voter wrote a newer
      // one meanwhile, and that request brings the row up to date itself.
      if (seat === 'seated') return { outcome: 'recorded', written: entry };
    }
    await syncVoteRow(id);
    return { outcome: 'recorded', written: entry };
  }
  throw new Error(`castVote: voter ${id} kept changing during ${MAX_ROUNDS} rounds`);
}
