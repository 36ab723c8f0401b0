import { PaymentPlan } from '@logovote/contracts';
import { versionedValue, type Version } from './store/versioned-value';
import { signalPollVisibility } from './vote-signals';

/**
 * Where a poll is in its life. Without multi-document transactions, creation and deletion span the
 * database and the object store in several steps; the state makes an interrupted one visible, so the
 * retention sweep can finish it: 'creating' until every image is stored, 'deleting' from the first
 * step of a deletion. Only 'active' polls are shown, listed or votable.
 */
export const POLL_STATES = ['creating', 'active', 'deleting'] as const;
export type PollState = (typeof POLL_STATES)[number];

/**
 * Everything that changes about a poll after it is created, apart from its votes: where it is in its life,
 * its plan and last activity, whether it takes votes (docs/closing.md) and where it is in moderation
 * (docs/moderation.md). One versioned value per poll (./store/versioned-value): the poll document is
 * inserted once and removed once, never updated, since FerretDB rewrites a whole document on update and
 * concurrent writers of it could put an older value back. A poll without a version is no poll (yet):
 * its creation writes the first one before the poll document.
 *
 * Moderation counts reports in rounds: round 0 starts with the poll, each review by the admin ends the
 * current one. `reportedAt` is the current round's first report (the admin list reads polls with one),
 * `hidden` says its reports reached the threshold: the poll is hidden pending review.
 *
 * Written by the sessions service (creation, deletion, plan, retention, closing, reviews) and the votes
 * service (reports, hiding); read on every vote and session view with one equality lookup.
 */
export interface PollStatus {
  /** Indexed: the retention sweep and the services that keep data of a poll look up 'creating' and 'deleting' ones. */
  state: PollState;
  paymentPlan: PaymentPlan;
  /**
   * Creating and choosing a plan, and (copied here by the retention sweep) the newest vote and request
   * for the links, which the votes and notify services keep in their own collections.
   */
  lastActivityAt: Date;
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

const NEW_POLL: Omit<PollStatus, 'lastActivityAt'> = {
  state: 'creating',
  paymentPlan: 'free',
  closed: false,
  closedAt: null,
  round: 0,
  hidden: false,
  reportedAt: null,
};
/** What a poll without a version reads as: not (yet) a poll, so nothing shows or changes it. */
const NO_POLL: PollStatus = { ...NEW_POLL, lastActivityAt: new Date(0) };

const pollStatus = versionedValue<PollStatus>({
  collection: 'poll_status',
  model: 'PollStatus',
  fields: {
    state: { type: String, enum: POLL_STATES, required: true },
    paymentPlan: { type: String, enum: PaymentPlan.options, required: true },
    lastActivityAt: { type: Date, required: true },
    closed: { type: Boolean, required: true },
    closedAt: { type: Date, default: null },
    round: { type: Number, required: true, min: 0 },
    hidden: { type: Boolean, required: true },
    reportedAt: { type: Date, default: null },
    awaitingReview: { type: Boolean },
  },
  indexed: ['state', 'awaitingReview'],
});

const valueOf = (version: Version<PollStatus>): PollStatus => {
  const { state, paymentPlan, lastActivityAt, closed, closedAt, round, hidden, reportedAt } = version.value;
  return { state, paymentPlan, lastActivityAt, closed, closedAt: closedAt ?? null, round, hidden, reportedAt: reportedAt ?? null };
};

/** A poll's status (one equality lookup). */
export async function readPollStatus(pollId: string): Promise<PollStatus> {
  const version = await pollStatus.read(pollId);
  return version ? valueOf(version) : NO_POLL;
}

/** A change of the status: the next value, or undefined to leave it as it is; `current` is null for no poll. */
async function changeStatus(
  pollId: string,
  decide: (current: PollStatus | null) => Partial<PollStatus> | undefined,
  now: Date,
): Promise<PollStatus> {
  const version = await pollStatus.change(
    pollId,
    (current) => {
      const value = current ? valueOf(current) : null;
      const change = decide(value);
      if (!change) return undefined;
      const next = { ...NO_POLL, ...value, ...change };
      const { awaitingReview: _, ...rest } = next;
      return next.reportedAt ? { ...rest, awaitingReview: true } : rest;
    },
    now,
  );
  return version ? valueOf(version) : NO_POLL;
}

/** A change of an active poll's status; a poll being created or deleted, or none, is left as it is. */
const changeActive = (pollId: string, decide: (current: PollStatus) => Partial<PollStatus> | undefined, now: Date) =>
  changeStatus(pollId, (current) => (current?.state === 'active' ? decide(current) : undefined), now);

/** The first step of a poll's creation, before its document: from here the retention sweep can finish or undo it. */
export async function recordPollCreating(pollId: string, now: Date = new Date()): Promise<void> {
  await changeStatus(pollId, (current) => (current ? undefined : { ...NEW_POLL, lastActivityAt: now }), now);
}

/** The last step of a poll's creation: it is shown, listed and votable from now on. */
export async function recordPollActive(pollId: string, now: Date = new Date()): Promise<void> {
  await changeStatus(pollId, (current) => (current?.state === 'creating' ? { state: 'active', lastActivityAt: now } : undefined), now);
}

/**
 * The first step of a poll's deletion: marks it 'deleting', which hides it everywhere. Resolves whether this
 * began the deletion (or, with `resume`, found one under way to go on with); false when there is no poll or
 * another deletion began it.
 */
export async function recordPollDeleting(pollId: string, resume = false, now: Date = new Date()): Promise<boolean> {
  let found = false;
  await changeStatus(
    pollId,
    (current) => {
      found = current !== null && (current.state !== 'deleting' || resume);
      return current && current.state !== 'deleting' ? { state: 'deleting' } : undefined;
    },
    now,
  );
  return found;
}

/** The creator's choice of plan (an activity of the poll); resolves with the status, null when the poll is not active. */
export async function recordPaymentPlan(pollId: string, paymentPlan: PaymentPlan, now: Date = new Date()): Promise<PollStatus | null> {
  const status = await changeActive(pollId, () => ({ paymentPlan, lastActivityAt: now }), now);
  return status.state === 'active' ? status : null;
}

/** Notes activity of an active poll at `at` (the retention sweep's copy of other services' activity); an older one changes nothing. */
export async function recordPollActivity(pollId: string, at: Date, now: Date = new Date()): Promise<void> {
  await changeActive(pollId, (current) => (at > current.lastActivityAt ? { lastActivityAt: at } : undefined), now);
}

/** Polls in `state` ('creating' or 'deleting': few at any time), each with when it got there (one equality lookup, and one per poll found). */
export async function pollsInState(state: Exclude<PollState, 'active'>): Promise<{ pollId: string; since: Date }[]> {
  return (await pollStatus.findWhere('state', state)).map(({ key, at }) => ({ pollId: key, since: at }));
}

/** Polls being deleted: each service that keeps data of a poll removes its own when it sees one here. */
export async function deletingPollIds(): Promise<string[]> {
  return (await pollsInState('deleting')).map(({ pollId }) => pollId);
}

/**
 * Closes (`closed: true`) or reopens a poll's voting; resolves with the status afterwards. Idempotent: a
 * poll already in that state keeps it (and its closedAt).
 */
export async function recordVotingState(pollId: string, closed: boolean, now: Date = new Date()): Promise<PollStatus> {
  return changeActive(pollId, (current) => (current.closed === closed ? undefined : { closed, closedAt: closed ? now : null }), now);
}

/** Notes the first report of a round (for the admin list); later ones, or an ended round's, change nothing. */
export async function markReported(pollId: string, round: number, at: Date = new Date()): Promise<void> {
  await changeActive(pollId, (current) => (current.round === round && current.reportedAt === null ? { reportedAt: at } : undefined), at);
}

/**
 * Hides a poll in `round` (its reports reached the threshold) and signals it to live results; resolves
 * whether it is hidden in that round now. Idempotent.
 */
export async function hideInRound(pollId: string, round: number, now: Date = new Date()): Promise<boolean> {
  const status = await changeActive(
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
  const status = await changeActive(
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

/** Removes a poll's status: the last step of its deletion, after the poll document. */
export async function deletePollStatus(pollId: string): Promise<void> {
  await pollStatus.remove(pollId);
}
