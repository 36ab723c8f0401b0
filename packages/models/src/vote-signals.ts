import { Schema, model } from 'mongoose';
import { claimOnce } from './store/claim-once';

/**
 * "A poll's votes changed during this second", for live results (docs/live-results.md). The votes
 * service, whichever replica takes a vote, inserts one signal per poll and second, keyed
 * `<second>#<pollId>`: the first vote of that second writes it, the others' inserts are refused by the
 * unique key and ignored (insert-only: no `$inc`, no read-modify-write, exact on FerretDB). Each sessions
 * replica reads the signals of the current and the previous second by equality on the indexed `second`
 * (the only filter FerretDB sends to PostgreSQL), so it learns which polls changed without reading any
 * poll's counts, whatever the number of viewers. Signals are removed a few seconds later.
 */
const voteSignalSchema = new Schema(
  {
    /** `${second}#${pollId}` */
    _id: { type: String, required: true },
    /** Whole seconds since the epoch (the votes replica's clock) when the vote was counted. */
    second: { type: Number, required: true },
    pollId: { type: String, required: true },
    /** Set on a signal that the poll was hidden or is being deleted (keyed `<second>#<pollId>#visibility`), not that votes changed. */
    visibility: { type: Boolean },
    /** Set on a signal that voters gave reasons (keyed `<second>#<pollId>#reasons`), not that votes changed. */
    reasons: { type: Boolean },
  },
  { collection: 'vote_signals', versionKey: false },
);
voteSignalSchema.index({ second: 1 });

export const VoteSignalModel = model('VoteSignal', voteSignalSchema);

export const signalSecond = (at: number): number => Math.floor(at / 1000);

/** Signals are kept this many seconds: readers look at the current and the previous second only. */
const SIGNALS_KEPT_SECONDS = 10;

async function insertSignal(second: number, pollId: string): Promise<void> {
  await claimOnce(VoteSignalModel, { _id: `${second}#${pollId}`, second, pollId });
}

/**
 * A votes replica's signaller: signals that a poll's counts changed, after the change is written (a reader
 * re-reads the counts until the signal's second has ended, so it counts every change of that second). Another
 * vote of the same second wrote the signal already: nothing to do. The replica remembers the signals of the
 * current second it wrote (or is writing), so a busy poll costs it one insert a second, not one per vote.
 */
export function voteChangeSignaller(): (pollId: string, now?: number) => Promise<void> {
  let second = Number.NaN;
  let written = new Map<string, Promise<void>>();
  return (pollId, now = Date.now()) => {
    const current = signalSecond(now);
    if (current !== second) {
      second = current;
      written = new Map();
    }
    const signals = written;
    let signal = signals.get(pollId);
    if (!signal) {
      signal = insertSignal(current, pollId);
      signals.set(pollId, signal);
      // A failed insert is not remembered: the next vote tries again.
      signal.catch(() => signals.delete(pollId));
    }
    return signal;
  };
}

/**
 * Signals that a poll stopped being shown (hidden pending review, or being deleted), after that is
 * written: every sessions replica's live results then end the poll's open streams within a tick or two.
 */
export async function signalPollVisibility(pollId: string, now: number = Date.now()): Promise<void> {
  const second = signalSecond(now);
  await claimOnce(VoteSignalModel, { _id: `${second}#${pollId}#visibility`, second, pollId, visibility: true });
}

/**
 * Signals that a voter gave a reason, after it is stored: open results pages then read the poll's reasons
 * again (docs/reasons.md). One insert per poll and second, as for votes; the others are refused by the key.
 */
export async function signalReasonGiven(pollId: string, now: number = Date.now()): Promise<void> {
  const second = signalSecond(now);
  await claimOnce(VoteSignalModel, { _id: `${second}#${pollId}#reasons`, second, pollId, reasons: true });
}

/** The signals of one second: which polls' votes changed then, got reasons, or stopped being shown (key and poll). */
export async function voteSignalsOf(
  second: number,
): Promise<{ _id: string; pollId: string; visibility?: boolean | null; reasons?: boolean | null }[]> {
  return VoteSignalModel.find({ second }, { pollId: 1, visibility: 1, reasons: 1 }).lean();
}

/**
 * Removes the signals no reader looks at any more. Second by second (equality deletes, which FerretDB
 * runs on the index) from where the previous pass of this sweeper ended; its first pass removes whatever
 * is older at once (a range, over the few rows left by a stop).
 */
export function voteSignalSweeper(): (now?: number) => Promise<void> {
  let sweptBefore: number | undefined;
  return async (now = Date.now()) => {
    const before = signalSecond(now) - SIGNALS_KEPT_SECONDS;
    if (sweptBefore === undefined) await VoteSignalModel.deleteMany({ second: { $lt: before } });
    else for (let second = sweptBefore; second < before; second++) await VoteSignalModel.deleteMany({ second });
    sweptBefore = before;
  };
}
