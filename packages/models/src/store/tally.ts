import { Schema } from 'mongoose';
import { claimOnce } from './claim-once';
import { primitiveCollection } from './collections';

/**
 * Exact tally: how many members of a tally hold each value, exact under any concurrency, on MongoDB and
 * on FerretDB, without transactions, `$inc` or read-modify-write (FerretDB 1.x loses concurrent updates
 * of one document). docs/vote-counts.md explains it for votes (tally: a poll; member: a voter; value: a
 * logo); the poll count uses it too (tally 'polls'; member: a poll; value 'listed').
 *
 * - A member's value changes by revisions, claimed once each under `<member>#<rev>`: rev 1 moves it from
 *   null, each later one from the previous value, `to: null` takes it back. Two writers of one member
 *   cannot both write revision n, so revisions always chain and no change counts twice.
 * - Revisions are `pending` until a fold adds them to a step: `<tally>#<seq>`, the counts after the
 *   revisions it lists in `folded`. Folders race for a step by claiming its seq; the loser gives up.
 * - Counts = the newest step + the pending revisions no kept step lists. Pending are read before steps,
 *   so a revision folded in between is found in its step's list and counted once.
 *
 * Cost: a write is one insert; a member's value is one equality lookup (its revisions, usually one to
 * three); a count is two equality lookups (pending revisions, then the kept steps: see STEP_KEPT_MS),
 * reading at most the revisions since the last fold (the votes service folds four times a second, a
 * tally with FOLD_BATCH pending or one five seconds old).
 * Stopped halfway: a revision is in or not; a step whose `pending` flags were not cleared is finished by
 * the next fold, and readers skip what a kept step lists.
 */

export interface Revision {
  tally: string;
  member: string;
  rev: number;
  from: string | null;
  to: string | null;
}

type Counts = Map<string, number>;

export const revisionId = (member: string, rev: number): string => `${member}#${rev}`;
/** Zero-padded so that a tally's step keys sort in step order. */
const stepId = (tally: string, seq: number): string => `${tally}#${String(seq).padStart(10, '0')}`;

function applyRevisions(counts: Counts, revisions: Pick<Revision, 'from' | 'to'>[]): Counts {
  const next = new Map(counts);
  for (const { from, to } of revisions) {
    if (from !== null) next.set(from, (next.get(from) ?? 0) - 1);
    if (to !== null) next.set(to, (next.get(to) ?? 0) + 1);
  }
  for (const [value, count] of next) if (count === 0) next.delete(value);
  return next;
}

/**
 * A step is kept at least this long, so a reader that read pending revisions before it still finds it:
 * a read of counts that took longer than half of it starts over. A folder whose read of the steps is
 * older than half of it gives up instead of claiming the next step: that step's number could by then
 * have been claimed, pruned and freed. Short, because every count and every fold reads all kept steps
 * with their `folded` lists, and a busy tally adds four steps a second; replicas' clocks must agree to
 * well within half of it.
 */
const STEP_KEPT_MS = 10_000;
/** How often a read of counts starts over before it gives up (each try stalled past STEP_KEPT_MS / 2). */
const COUNT_READ_TRIES = 5;
/** And the newest few, whatever their age. */
const STEPS_KEPT = 3;
/** A tally is folded once it has this many pending revisions, or one this old. */
const FOLD_BATCH = 16;
const FOLD_AFTER_MS = 5_000;
const FOLDS_AT_ONCE = 4;

export interface Step {
  seq: number;
  counts: Counts;
  folded: string[];
  at: Date;
}

/**
 * What test support needs to bulk-load a tally (fixtures and the benchmark's million votes): its
 * revisions' model and the fold's own step writing. Not part of @logovote/models' entry.
 */
const bulkLoaders = new WeakMap<object, TallyBulkLoader>();
export interface TallyBulkLoader {
  RevisionModel: { insertMany(documents: Record<string, unknown>[]): Promise<unknown> };
  steps(tally: string): Promise<Step[] & { readAt: number }>;
  addStep(
    tally: string,
    kept: Step[] & { readAt: number },
    revisions: Pick<Revision, 'from' | 'to'>[],
    folded: string[],
    now: Date,
  ): Promise<boolean>;
  markFolded(tally: string, ids: string[]): Promise<void>;
}
/** A tally's revisions and steps, in two collections written by one service. */
export function exactTally(names: { revisions: string; steps: string; model: string }) {
  const revisionSchema = new Schema(
    {
      _id: { type: String, required: true },
      tally: { type: String, required: true },
      member: { type: String, required: true },
      rev: { type: Number, required: true, min: 1 },
      from: { type: String, default: null },
      to: { type: String, default: null },
      /**
       * Both present until folded, so their indexes hold only what is still to fold: `pending` for the
       * folder's look over all tallies, `pendingIn` (the tally) for one tally's, a single-field lookup
       * PostgreSQL cannot mistake for reading the whole tally.
       */
      pending: { type: Boolean },
      pendingIn: { type: String },
      at: { type: Date, required: true, default: () => new Date() },
    },
    { collection: names.revisions, versionKey: false },
  );
  revisionSchema.index({ tally: 1 });
  revisionSchema.index({ pending: 1 });
  revisionSchema.index({ pendingIn: 1 });
  revisionSchema.index({ member: 1 });
  const RevisionModel = primitiveCollection('exactTally', `${names.model}Revision`, revisionSchema);

  const stepSchema = new Schema(
    {
      _id: { type: String, required: true },
      tally: { type: String, required: true },
      seq: { type: Number, required: true, min: 1 },
      /** Count per value (an array: values are data, not field names). */
      counts: { type: [{ _id: false, value: { type: String, required: true }, count: { type: Number, required: true } }], required: true },
      /** The revisions this step added. */
      folded: { type: [String], required: true },
      at: { type: Date, required: true, default: () => new Date() },
    },
    { collection: names.steps, versionKey: false },
  );
  stepSchema.index({ tally: 1 });
  const StepModel = primitiveCollection('exactTally', `${names.model}Step`, stepSchema);

  /** Claims revision `rev` of a member; false when it exists already (another writer of the member was first). */
  const append = (revision: Revision): Promise<boolean> =>
    claimOnce(RevisionModel, { _id: revisionId(revision.member, revision.rev), ...revision, pending: true, pendingIn: revision.tally });

  /** A member's revisions in order (one equality lookup). */
  async function revisions(member: string): Promise<Revision[]> {
    const found = await RevisionModel.find({ member }, { _id: 0, tally: 1, member: 1, rev: 1, from: 1, to: 1 }).lean<Revision[]>();
    return found.sort((a, b) => a.rev - b.rev);
  }

  /** A member's newest revision and value (rev 0, null: none). */
  async function head(member: string): Promise<{ rev: number; value: string | null }> {
    const newest = (await revisions(member)).at(-1);
    return newest ? { rev: newest.rev, value: newest.to } : { rev: 0, value: null };
  }

  /** A tally's kept steps, newest first, and when they were read (performance.now()). */
  async function steps(tally: string): Promise<Step[] & { readAt: number }> {
    const readAt = performance.now();
    const rows = await StepModel.find({ tally }, { seq: 1, counts: 1, folded: 1, at: 1 }).lean();
    const kept = rows
      .map((row) => ({
        seq: row.seq,
        counts: new Map(row.counts.map(({ value, count }) => [value, count])),
        folded: row.folded,
        at: row.at,
      }))
      .sort((a, b) => b.seq - a.seq);
    return Object.assign(kept, { readAt });
  }

  const pendingRevisions = (tally: string) =>
    RevisionModel.find({ pendingIn: tally }, { from: 1, to: 1, at: 1 }).lean<
      { _id: string; from: string | null; to: string | null; at: Date }[]
    >();

  /** Exact count per value (values counted zero are absent). */
  async function readCounts(tally: string): Promise<Counts> {
    for (let attempt = 0; attempt < COUNT_READ_TRIES; attempt++) {
      const startedAt = performance.now();
      // Pending first, steps second: see the module comment.
      const pending = await pendingRevisions(tally);
      const kept = await steps(tally);
      // A step listing a revision read as pending could have been pruned meanwhile: see STEP_KEPT_MS.
      if (performance.now() - startedAt > STEP_KEPT_MS / 2) continue;
      const folded = new Set(kept.flatMap((step) => step.folded));
      return applyRevisions(
        kept[0]?.counts ?? new Map(),
        pending.filter((revision) => !folded.has(revision._id)),
      );
    }
    throw new Error(`exact tally ${tally}: every read of its counts took longer than ${STEP_KEPT_MS / 2} ms`);
  }

  /** When a tally last changed (its newest step or pending revision), or null if it never did. */
  async function lastChangeAt(tally: string): Promise<Date | null> {
    const [kept, pending] = await Promise.all([steps(tally), pendingRevisions(tally)]);
    const times = [...kept, ...pending].map((item) => item.at.getTime());
    return times.length === 0 ? null : new Date(Math.max(...times));
  }

  /**
   * Every member of a tally with its value (null: it holds none), read from the tally's revisions (one
   * equality lookup, in memory: for exports of tallies of thousands of members, not for request paths).
   */
  async function memberValues(tally: string): Promise<Map<string, string | null>> {
    const rows = await RevisionModel.find({ tally }, { _id: 0, member: 1, rev: 1, to: 1 }).lean<
      Pick<Revision, 'member' | 'rev' | 'to'>[]
    >();
    const newest = new Map<string, Pick<Revision, 'rev' | 'to'>>();
    for (const row of rows) if ((newest.get(row.member)?.rev ?? 0) < row.rev) newest.set(row.member, row);
    return new Map([...newest].map(([member, { to }]) => [member, to]));
  }

  /** Whether anything of a tally is stored. */
  async function hasTally(tally: string): Promise<boolean> {
    return (await RevisionModel.exists({ tally })) !== null || (await StepModel.exists({ tally })) !== null;
  }

  /** How many revisions wait for a fold, over all tallies. */
  const countPending = (): Promise<number> => RevisionModel.countDocuments({ pending: true });

  async function markFolded(tally: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    // The filter FerretDB sends to PostgreSQL (pendingIn) keeps the scan to this tally's pending revisions.
    await RevisionModel.updateMany({ pendingIn: tally, _id: { $in: ids } }, { $unset: { pending: 1, pendingIn: 1 } });
  }

  /**
   * Claims the step after `kept[0]` counting `revisions` (those it lists in `folded`; revisions written
   * already folded are counted unlisted), then prunes steps no reader can still need. False when another
   * folder claimed that step first, or when `kept` was read too long ago to trust (see STEP_KEPT_MS).
   */
  async function addStep(
    tally: string,
    kept: Step[] & { readAt: number },
    revisions: Pick<Revision, 'from' | 'to'>[],
    folded: string[],
    now: Date,
  ): Promise<boolean> {
    if (performance.now() - kept.readAt > STEP_KEPT_MS / 2) return false;
    const newest = kept[0];
    const seq = (newest?.seq ?? 0) + 1;
    const counts = [...applyRevisions(newest?.counts ?? new Map(), revisions)].map(([value, count]) => ({ value, count }));
    if (!(await claimOnce(StepModel, { _id: stepId(tally, seq), tally, seq, counts, folded, at: now }))) return false;
    await markFolded(tally, folded);
    const prunable = kept.slice(STEPS_KEPT - 1).filter((step) => now.getTime() - step.at.getTime() > STEP_KEPT_MS);
    for (const step of prunable) await StepModel.deleteOne({ _id: stepId(tally, step.seq) });
    return true;
  }

  /**
   * Folds a tally's pending revisions into a new step. Any number of folders may run at once (replicas):
   * one wins each step, and a step whose folder stopped is finished by the next. Resolves with how many
   * revisions this call folded.
   */
  async function fold(tally: string, now: Date = new Date()): Promise<number> {
    const kept = await steps(tally);
    const alreadyFolded = new Set(kept.flatMap((step) => step.folded));
    const found = await pendingRevisions(tally);
    // Finish a fold that stopped first: its revisions must stop looking pending before a new step lists
    // others. Read after the steps, the pending revisions show every one it left flagged.
    await markFolded(
      tally,
      found.filter((revision) => alreadyFolded.has(revision._id)).map((revision) => revision._id),
    );
    const pending = found.filter((revision) => !alreadyFolded.has(revision._id));
    if (pending.length === 0) return 0;
    const folded = pending.map((revision) => revision._id);
    return (await addStep(tally, kept, pending, folded, now)) ? folded.length : 0;
  }

  /** One pass of a folder: folds every tally with enough pending revisions, or old ones. */
  async function foldDue(now: Date = new Date()): Promise<number> {
    const pending = await RevisionModel.find({ pending: true }, { tally: 1, at: 1 }).limit(20_000).lean<{ tally: string; at: Date }[]>();
    const byTally = new Map<string, { count: number; oldest: number }>();
    for (const revision of pending) {
      const entry = byTally.get(revision.tally) ?? { count: 0, oldest: Infinity };
      entry.count += 1;
      entry.oldest = Math.min(entry.oldest, revision.at.getTime());
      byTally.set(revision.tally, entry);
    }
    const due = [...byTally]
      .filter(([, { count, oldest }]) => count >= FOLD_BATCH || now.getTime() - oldest >= FOLD_AFTER_MS)
      .map(([tally]) => tally);
    // A few tallies at a time: under load a lone folder's queries wait behind the voters' and it falls behind.
    let folded = 0;
    const worker = async () => {
      for (let tally = due.pop(); tally !== undefined; tally = due.pop()) folded += await fold(tally, now);
    };
    await Promise.all(Array.from({ length: FOLDS_AT_ONCE }, worker));
    return folded;
  }

  /** Removes a tally's revisions and steps; resolves with how many revisions went. */
  async function deleteTally(tally: string): Promise<number> {
    const [removed] = await Promise.all([RevisionModel.deleteMany({ tally }), StepModel.deleteMany({ tally })]);
    return removed.deletedCount;
  }

  const tallyOperations = {
    append,
    revisions,
    head,
    readCounts,
    lastChangeAt,
    memberValues,
    hasTally,
    countPending,
    fold,
    foldDue,
    deleteTally,
  } as const;
  bulkLoaders.set(tallyOperations, { RevisionModel, steps, addStep, markFolded });
  return tallyOperations;
}

export type ExactTally = ReturnType<typeof exactTally>;

export const tallyBulkLoader = (tally: ExactTally): TallyBulkLoader => bulkLoaders.get(tally)!;
