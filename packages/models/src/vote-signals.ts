import { timeBucketedLog } from './store/time-bucketed-log';

/**
 * "A poll's votes changed during this second", for live results (docs/live-results.md). The votes
 * service, whichever replica takes a vote, appends one signal per poll and second, keyed
 * `<second>#<pollId>`: the first batch of that second naming the poll writes it, other replicas' appends
 * are refused by the unique key and ignored (insert-only: no `$inc`, no read-modify-write, exact on FerretDB). A time-bucketed
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
    /**
     * Set on a signal that voters gave reasons (keyed `<second>#<pollId>#reasons`) or answered attribute
     * questions (`…#answers`), not that votes changed: open pages read those again.
     */
    reasons: { type: Boolean },
  },
  spansMs: [1000],
});

export const signalSecond = (at: number): number => Math.floor(at / 1000);

/** Signals are kept this many seconds: readers look at the current and the previous second only. */
const SIGNALS_KEPT_SECONDS = 10;

/** How long a votes replica gathers the polls whose votes changed before it signals them together. */
const SIGNAL_BATCH_MS = 100;

/** A votes replica's signals that polls' counts changed. */
export interface VoteChangeSignals {
  /** Notes that a poll's counts changed, once the change is written: its signal follows within the batch time. */
  changed(pollId: string): void;
  /** Signals what is noted now; resolves once written (or failed: then retried with the next change). */
  flush(): Promise<void>;
}

/**
 * A votes replica's signaller. A signal is written after the changes it announces (a reader re-reads the
 * counts until the signal's second has ended, so it counts every change before it); the replica gathers the
 * polls changed during `batchMs` and appends their signals in one insert, and skips a poll it signalled in
 * the same second already (another replica's signal of it is refused by the key). So a replica costs about
 * one insert per batch whatever the number of polls and votes, and none inside a vote's request.
 */
export function voteChangeSignals(onError: (error: unknown) => void, batchMs: number = SIGNAL_BATCH_MS): VoteChangeSignals {
  let noted = new Set<string>();
  let second = Number.NaN;
  let signalledThisSecond = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  async function write(): Promise<void> {
    const now = Date.now();
    const current = signalSecond(now);
    if (current !== second) {
      second = current;
      signalledThisSecond = new Set();
    }
    const due = [...noted].filter((pollId) => !signalledThisSecond.has(pollId));
    noted = new Set();
    if (due.length === 0) return;
    for (const pollId of due) signalledThisSecond.add(pollId);
    try {
      await signals.appendAll(
        due.map((pollId) => ({ id: `${current}#${pollId}`, fields: { pollId } })),
        new Date(now),
      );
    } catch (error) {
      // Noted again, for the next change to retry; until then open pages show these votes on reload.
      for (const pollId of due) {
        signalledThisSecond.delete(pollId);
        noted.add(pollId);
      }
      onError(error);
    }
  }

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    writing = writing.then(write);
    return writing;
  }

  return {
    changed(pollId) {
      noted.add(pollId);
      if (timer) return;
      timer = setTimeout(() => void flush(), batchMs);
      // A batch waiting does not keep the process alive: shutting down flushes it.
      timer.unref();
    },
    flush,
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

/**
 * Signals that a voter answered an attribute question (docs/attributes.md), after it is stored: open results
 * pages read the answers again, on the same event as reasons. One insert per poll and second.
 */
export async function signalAnswersGiven(pollId: string, now: number = Date.now()): Promise<void> {
  await signals.append(`${signalSecond(now)}#${pollId}#answers`, { pollId, reasons: true }, new Date(now));
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
