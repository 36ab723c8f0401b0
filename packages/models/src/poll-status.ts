import { versionedValue, type Version } from './store/versioned-value';
import { signalPollVisibility } from './vote-signals';

/**
 * What changes about a poll after it is created, apart from its votes: whether it takes votes
 * (docs/closing.md) and where it is in moderation (docs/moderation.md). One versioned value per poll
 * (./store/versioned-value), not fields of the poll document: FerretDB rewrites a whole document on
 * update, so the plan or the retention sweep's writes could put an older state back. A poll that never
 * changed has no version: open, round 0, shown.
 *
 * Moderation counts reports in rounds: round 0 starts with the poll, each review by the admin ends the
 * current one. `reportedAt` is the current round's first report (the admin list reads polls with one),
 * `hidden` says its reports reached the threshold: the poll is hidden pending review.
 *
 * Written by the sessions service (closing, reviews) and the votes service (reports, hiding); read on
 * every vote and session view with one equality lookup.
 */
export interface PollStatus {
  /**
   * Written true by the poll's creation, false once its deletion begins: while true, a reader may keep the
   * poll's content (which never changes) and read only this status fresh (./live-poll). A status without
   * it (none written at creation, or written anew after deletion removed it) leaves the poll document to decide.
   */
  active: boolean;
  closed: boolean;
  /** When voting closed, while it is closed. */
  closedAt: Date | null;
  round: number;
  hidden: boolean;
  /** When the current round's first report came (null: none yet). */
  reportedAt: Date | null;
  /** True while the current round has reports not yet reviewed: the admin list's lookup (absent otherwise). */
  awaitingReview?: true;
}

const OPEN: PollStatus = { active: false, closed: false, closedAt: null, round: 0, hidden: false, reportedAt: null };

const pollStatus = versionedValue<PollStatus>({
  collection: 'poll_status',
  model: 'PollStatus',
  fields: {
    active: { type: Boolean },
    closed: { type: Boolean, required: true },
    closedAt: { type: Date, default: null },
    round: { type: Number, required: true, min: 0 },
    hidden: { type: Boolean, required: true },
    reportedAt: { type: Date, default: null },
    awaitingReview: { type: Boolean },
  },
  indexed: ['awaitingReview'],
});

const valueOf = (version: Version<PollStatus> | null): PollStatus => {
  if (!version) return OPEN;
  const { active, closed, closedAt, round, hidden, reportedAt } = version.value;
  return { active: active === true, closed, closedAt: closedAt ?? null, round, hidden, reportedAt: reportedAt ?? null };
};

/** A poll's status (one equality lookup). */
export async function readPollStatus(pollId: string): Promise<PollStatus> {
  return valueOf(await pollStatus.read(pollId));
}

/** A change of the status: the next value, or undefined to leave it as it is. */
async function changeStatus(
  pollId: string,
  decide: (current: PollStatus) => Partial<PollStatus> | undefined,
  now: Date,
): Promise<PollStatus> {
  const version = await pollStatus.change(
    pollId,
    (current) => {
      const value = valueOf(current);
      const change = decide(value);
      if (!change) return undefined;
      const next = { ...value, ...change };
      const { awaitingReview: _, ...rest } = next;
      return next.reportedAt ? { ...rest, awaitingReview: true } : rest;
    },
    now,
  );
  return valueOf(version);
}

/** Marks a poll's status active: the last step of its creation, before the poll itself turns active. */
export async function recordPollActive(pollId: string, now: Date = new Date()): Promise<void> {
  await changeStatus(pollId, (current) => (current.active ? undefined : { active: true }), now);
}

/** Marks a poll's status no longer active: its deletion began (the poll document says 'deleting'). */
export async function recordPollDeleting(pollId: string, now: Date = new Date()): Promise<void> {
  await changeStatus(pollId, (current) => (current.active ? { active: false } : undefined), now);
}

/**
 * Closes (`closed: true`) or reopens a poll's voting; resolves with the status afterwards. Idempotent: a
 * poll already in that state keeps it (and its closedAt).
 */
export async function recordVotingState(pollId: string, closed: boolean, now: Date = new Date()): Promise<PollStatus> {
  return changeStatus(pollId, (current) => (current.closed === closed ? undefined : { closed, closedAt: closed ? now : null }), now);
}

/** Notes the first report of a round (for the admin list); later ones, or an ended round's, change nothing. */
export async function markReported(pollId: string, round: number, at: Date = new Date()): Promise<void> {
  await changeStatus(pollId, (current) => (current.round === round && current.reportedAt === null ? { reportedAt: at } : undefined), at);
}

/**
 * Hides a poll in `round` (its reports reached the threshold) and signals it to live results; resolves
 * whether it is hidden in that round now. Idempotent.
 */
export async function hideInRound(pollId: string, round: number, now: Date = new Date()): Promise<boolean> {
  const status = await changeStatus(
    pollId,
    (current) => (current.round === round && !current.hidden ? { hidden: true, reportedAt: current.reportedAt ?? now } : undefined),
    now,
  );
  if (status.round !== round || !status.hidden) return false;
  // Open live results streams of the poll end (docs/moderation.md).
  await signalPollVisibility(pollId, now.getTime());
  return true;
}

/**
 * The admin's review of a round: the poll is shown and votable again, and a new round starts, in which
 * the reviewed round's reports no longer count. Reviewing an ended round changes nothing. Resolves with
 * the current round.
 */
export async function recordReview(pollId: string, round: number, now: Date = new Date()): Promise<number> {
  const status = await changeStatus(
    pollId,
    (current) => (current.round === round ? { round: round + 1, hidden: false, reportedAt: null } : undefined),
    now,
  );
  return status.round;
}

/** Polls whose current round has unreviewed reports, most recently first reported first. */
export async function pollsAwaitingReview(): Promise<{ pollId: string; round: number; hidden: boolean; reportedAt: Date }[]> {
  const versions = await pollStatus.findWhere('awaitingReview', true);
  return versions
    .map(({ key, value }) => ({ pollId: key, round: value.round, hidden: value.hidden, reportedAt: value.reportedAt ?? new Date(0) }))
    .sort((a, b) => b.reportedAt.getTime() - a.reportedAt.getTime());
}

/** Removes a poll's status (with the poll). */
export async function deletePollStatus(pollId: string): Promise<void> {
  await pollStatus.remove(pollId);
}
