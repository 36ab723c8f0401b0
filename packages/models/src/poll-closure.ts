import { Schema, model } from 'mongoose';
import { isDuplicateKey } from './tally-ledger';

/**
 * Whether a poll takes votes (docs/closing.md). Not a field of the poll: the poll document is also
 * updated by other paths (the plan, the retention sweep's activity copy), and FerretDB 1.x applies an
 * update by rewriting the whole document it read, so a concurrent update could put an older state back.
 * Instead each change is an insert-only entry keyed `<pollId>#<seq>` (the unique key lets exactly one of
 * two racing changes take a number), and the newest entry is the state. A poll without entries is open.
 * The entry before the newest is removed once the newest is in, so a poll has one entry (two for a
 * moment); reading is one equality lookup on `pollId`. The sessions service writes it; the votes
 * service reads it.
 */
const pollClosureSchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    seq: { type: Number, required: true, min: 1 },
    closed: { type: Boolean, required: true },
    at: { type: Date, required: true, default: () => new Date() },
  },
  { collection: 'poll_closures', versionKey: false },
);
pollClosureSchema.index({ pollId: 1 });
export const PollClosureModel = model('PollClosure', pollClosureSchema);

const closureId = (pollId: string, seq: number): string => `${pollId}#${seq}`;

export interface VotingStateOfPoll {
  closed: boolean;
  /** When voting closed, while it is closed. */
  closedAt: Date | null;
  /** The newest entry's number (0: never changed). */
  seq: number;
}

/** A poll's voting state: its newest entry, or open when it has none. */
export async function readVotingState(pollId: string): Promise<VotingStateOfPoll> {
  const entries = await PollClosureModel.find({ pollId }, { seq: 1, closed: 1, at: 1 }).lean();
  const newest = entries.reduce<(typeof entries)[number] | undefined>(
    (best, entry) => (best && best.seq > entry.seq ? best : entry),
    undefined,
  );
  if (!newest) return { closed: false, closedAt: null, seq: 0 };
  return { closed: newest.closed, closedAt: newest.closed ? newest.at : null, seq: newest.seq };
}

/** How often a change starts over after another change of the same poll took its number. */
const MAX_ATTEMPTS = 5;

/**
 * Closes (`closed: true`) or reopens a poll's voting, and resolves with the state afterwards. Idempotent:
 * a poll already in that state is left as it is (and keeps its closedAt).
 */
export async function recordVotingState(pollId: string, closed: boolean, now: Date = new Date()): Promise<VotingStateOfPoll> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await readVotingState(pollId);
    if (current.closed === closed) return current;
    const seq = current.seq + 1;
    try {
      await PollClosureModel.create({ _id: closureId(pollId, seq), pollId, seq, closed, at: now });
    } catch (error: unknown) {
      // Another change of this poll took the number: read what it did and decide again.
      if (isDuplicateKey(error)) continue;
      throw error;
    }
    // The newest entry decides: the one before it only makes reads longer (one left behind by a stopped
    // request is harmless, and the next change removes its own predecessor only).
    if (current.seq > 0) await PollClosureModel.deleteOne({ _id: closureId(pollId, current.seq) });
    return { closed, closedAt: closed ? now : null, seq };
  }
  throw new Error(`recordVotingState: poll ${pollId} kept changing during ${MAX_ATTEMPTS} attempts`);
}

/** Removes a poll's voting state (with the poll). */
export async function deleteVotingState(pollId: string): Promise<void> {
  await PollClosureModel.deleteMany({ pollId });
}
