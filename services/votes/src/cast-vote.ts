import { VoteModel, voteId } from '@logovote/models';

export interface Ballot {
  pollId: string;
  fingerprint: string;
  logoId: string;
  ipHash: string;
}

export type CastOutcome = 'recorded' | 'address-limit';

const DUPLICATE_KEY = 11000;

function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/**
 * A voter who already voted in this poll changes the vote; true when there was one. It reads
 * first and writes only for a real change: writes are what a busy store queues.
 */
async function changeExistingVote(ballot: Ballot): Promise<boolean> {
  const _id = voteId(ballot.pollId, ballot.fingerprint);
  const existing = await VoteModel.findById(_id, { logoId: 1 }).lean();
  if (!existing) return false;
  if (existing.logoId !== ballot.logoId) await VoteModel.updateOne({ _id }, { $set: { logoId: ballot.logoId } });
  return true;
}

/** The seats of the address nobody holds yet in this poll. */
async function freeSeats(ballot: Ballot, votersPerAddress: number): Promise<number[]> {
  const taken = await VoteModel.find({ pollId: ballot.pollId, ipHash: ballot.ipHash }, { ipSlot: 1, _id: 0 }).lean();
  const takenSlots = new Set(taken.map((vote) => vote.ipSlot));
  const free: number[] = [];
  for (let slot = 0; slot < votersPerAddress; slot++) if (!takenSlots.has(slot)) free.push(slot);
  return free;
}

const randomOf = (values: number[]) => values[Math.floor(Math.random() * values.length)];

/**
 * Records a ballot: one vote per fingerprint per poll (voting again changes it), and at most
 * `votersPerAddress` distinct voters per address per poll, exactly, however many requests race.
 *
 * The vote is inserted first, into a random seat of its address (see the votes model): most ballots
 * are first votes and an address rarely holds more than a few voters, so this usually succeeds with
 * one write and no read (reads cost most on the embedded FerretDB, which scans the collection even
 * for a lookup by key). Only two things make the insert fail with a duplicate key: the voter already
 * has a vote in this poll (change it) or the seat is taken (read which seats are free and take one).
 * After the first insert, each failed one means another voter took a seat meanwhile, so there are at
 * most `votersPerAddress` retries. A voter who already voted may always change the vote, even at the cap.
 */
export async function castVote(ballot: Ballot, votersPerAddress: number): Promise<CastOutcome> {
  let ipSlot = Math.floor(Math.random() * votersPerAddress);
  for (let attempt = 0; attempt <= votersPerAddress; attempt++) {
    try {
      await VoteModel.create({ _id: voteId(ballot.pollId, ballot.fingerprint), ...ballot, ipSlot });
      return 'recorded';
    } catch (error: unknown) {
      if (!isDuplicateKey(error)) throw error;
    }
    if (await changeExistingVote(ballot)) return 'recorded';
    const freeSeat = randomOf(await freeSeats(ballot, votersPerAddress));
    if (freeSeat === undefined) {
      // The same fingerprint may have taken the last seat in the meantime.
      return (await changeExistingVote(ballot)) ? 'recorded' : 'address-limit';
    }
    ipSlot = freeSeat;
  }
  throw new Error(`castVote: no seat after ${votersPerAddress + 1} attempts`);
}
