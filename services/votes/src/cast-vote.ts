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

/**
 * Records a ballot: one vote per fingerprint per poll (voting again changes it), and at most
 * `votersPerAddress` distinct voters per address per poll, exactly, however many requests race.
 *
 * A new voter inserts its vote into a free seat of its address (see the votes model). Only two
 * things make that insert fail with a duplicate key: the same fingerprint's vote was inserted
 * meanwhile (a concurrent first vote: change that one instead) or another voter took the seat
 * (read the seats again). Each retry means some other voter got a seat, so there are at most
 * `votersPerAddress` retries. A voter who already voted may always change the vote, even at the cap.
 */
export async function castVote(ballot: Ballot, votersPerAddress: number): Promise<CastOutcome> {
  for (let attempt = 0; attempt <= votersPerAddress; attempt++) {
    if (await changeExistingVote(ballot)) return 'recorded';
    const taken = await VoteModel.find({ pollId: ballot.pollId, ipHash: ballot.ipHash }, { ipSlot: 1, _id: 0 }).lean();
    const takenSlots = new Set(taken.map((vote) => vote.ipSlot));
    const free: number[] = [];
    for (let slot = 0; slot < votersPerAddress; slot++) if (!takenSlots.has(slot)) free.push(slot);
    if (free.length === 0) {
      // The same fingerprint may have taken the last seat in the meantime.
      return (await changeExistingVote(ballot)) ? 'recorded' : 'address-limit';
    }
    // A random free seat: voters racing from one address rarely pick the same one.
    const ipSlot = free[Math.floor(Math.random() * free.length)];
    try {
      await VoteModel.create({ _id: voteId(ballot.pollId, ballot.fingerprint), ...ballot, ipSlot });
      return 'recorded';
    } catch (error: unknown) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
  throw new Error(`castVote: no seat after ${votersPerAddress + 1} attempts`);
}
