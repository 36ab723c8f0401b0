import { timeBucketedLog } from './store/time-bucketed-log';

/**
 * "A poll's votes changed during this second", for live results (docs/live-results.md). The votes
 * service, whichever replica takes a vote, appends one signal per poll and second, keyed
 * `<second>#<pollId>`: the first vote of that second writes it, the others' appends are refused by the
 * unique key and ignored (insert-only: no `$inc`, no read-modify-write, exact on FerretDB). A time-bucketed
 * log (./store/time-bucketed-log) by second: each sessions replica reads the buckets of the current and the
 * previous second (one equality lookup each), so it learns which polls changed without reading any poll's
 * counts, whatever the number of viewers. Signals are swept whole seconds at a time a few seconds later.
 */
const signals = timeBucketedLog<{ pollId: string; visibility?: true; reasons?: true }>({
  name: 'vote-signals',
  collection: 'vote_signals',
  model: 'VoteSignal',
  fields: {
    pollId: { type: String, required: true },
    /** Set on a signal that the poll was hidden or is being deleted (keyed `<second>#<pollId>#visibility`), not that votes changed. */
    visibility: { type: Boolean },
    /** Set on a signal that voters gave reasons (keyed `<second>#<pollId>#reasons`), not that votes changed. */
    reasons: { type: Boolean },
  },
  spansMs: [1000],
});

export const signalSecond = (at: number): number => Math.floor(at / 1000);

/** Signals are kept this many seconds: readers look at the current and the previous second only. */
const SIGNALS_KEPT_SECONDS = 10;

/**
 * A votes replica's signaller: signals that a poll's counts changed, after the change is written (a reader
 * re-reads the counts until the signal's second has ended, so it counts every change of that second). Another
 * vote of the same second wrote the signal already: nothing to do. The replica remembers the signals of the
 * current second it wrote (or is writing), so a busy poll costs it one insert a second, not one per vote.
 */
export function voteChangeSignaller(): (pollId: string, now?: number) => Promise<void> {
  let second = Number.NaN;
  let written = new Map<string, Promise<unknown>>();
  return async (pollId, now = Date.now()) => {
    const current = signalSecond(now);
    if (current !== second) {
      second = current;
      written = new Map();
    }
    const signalled = written;
    let signal = signalled.get(pollId);
    if (!signal) {
      signal = signals.append(`${current}#${pollId}`, { pollId }, new Date(now));
      signalled.set(pollId, signal);
      // A failed append is not remembered: the next vote tries again.
      signal.catch(() => signalled.delete(pollId));
    }
    await signal;
  };
}

/**
 * Signals that a poll stopped being shown (hidden pending review, or being deleted), after that is
 * written: every sessions replica's live results then end the poll's open streams within a tick or two.
 */
export async function signalPollVisibility(pollId: string, now: number = Date.now()): Promise<void> {
  await signals.append(`${signalSecond(now)}#${pollId}#visibility`, { pollId, visibility: true }, new Date(now));
}

/**
 * Signals that a voter gave a reason, after it is stored: open results pages then read the poll's reasons
 * again (docs/reasons.md). One insert per poll and second, as for votes; the others are refused by the key.
 */
export async function signalReasonGiven(pollId: string, now: number = Date.now()): Promise<void> {
  await signals.append(`${signalSecond(now)}#${pollId}#reasons`, { pollId, reasons: true }, new Date(now));
}

/** The signals of one second: which polls' votes changed then, got reasons, or stopped being shown (key and poll). */
export async function voteSignalsOf(
  second: number,
): Promise<{ _id: string; pollId: string; visibility?: boolean | null; reasons?: boolean | null }[]> {
  return signals.recordsIn(signals.bucketKeys(second * 1000)[0]!);
}

/** Removes the signals no reader looks at any more: every second that ended SIGNALS_KEPT_SECONDS before `now`. */
export async function sweepVoteSignals(now: number = Date.now()): Promise<void> {
  await signals.sweep((signalSecond(now) - SIGNALS_KEPT_SECONDS) * 1000);
}
