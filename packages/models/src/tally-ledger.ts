import { Schema, model } from 'mongoose';

/**
 * Exact counts that a reader gets in a bounded number of small reads, on MongoDB and on FerretDB,
 * without transactions and without trusting `$inc` or any read-modify-write (FerretDB 1.x loses
 * concurrent updates of one document). Only inserts with unique keys decide anything; see
 * docs/vote-counts.md. Votes per logo of a poll are counted this way (./vote-ledger), and so is the
 * number of polls (./poll-list).
 *
 * - The ledger holds one entry per change of one member's value, keyed `<voteId>#<rev>`: rev 1 is the
 *   first value (from null), each later rev moves it from one value to another, and `to: null` takes
 *   it back. `pollId` names the tally the entry counts in (a poll's votes; 'polls' for the poll count),
 *   `voteId` the member (a voter in a poll; a poll). The unique key makes a revision impossible to
 *   write twice, so one member's entries always chain: each entry's `from` is the previous one's `to`.
 * - Entries carry `pending: true` until a fold has added them to their tally.
 * - A tally is one insert-only step of a per-tally chain keyed `<pollId>#<seq>`: the counts after folding
 *   the entries it lists in `folded` into the previous step. Two folders racing for the same step: one
 *   insert wins, the other's is refused and it gives up.
 *
 * Counts = the newest step + the pending entries no kept step has folded. A reader reads the pending
 * entries first and the steps second, so an entry that a fold takes meanwhile is found in the step's
 * `folded` list and counted once.
 */

export interface LedgerEntry {
  _id: string;
  pollId: string;
  voteId: string;
  rev: number;
  from: string | null;
  to: string | null;
}

export const ledgerEntryId = (voteId: string, rev: number): string => `${voteId}#${rev}`;
/** Zero-padded so that the keys of one tally sort in step order. */
const tallyId = (pollId: string, seq: number): string => `${pollId}#${String(seq).padStart(10, '0')}`;

const DUPLICATE_KEY = 11000;
export const isDuplicateKey = (error: unknown): boolean => (error as { code?: unknown }).code === DUPLICATE_KEY;

type Counts = Map<string, number>;

function applyEntries(counts: Counts, entries: Pick<LedgerEntry, 'from' | 'to'>[]): Counts {
  const next = new Map(counts);
  for (const { from, to } of entries) {
    if (from !== null) next.set(from, (next.get(from) ?? 0) - 1);
    if (to !== null) next.set(to, (next.get(to) ?? 0) + 1);
  }
  for (const [value, count] of next) if (count === 0) next.delete(value);
  return next;
}

/** A tally step is kept at least this long, so a reader that read pending entries before it still finds it. */
const TALLY_KEPT_MS = 60_000;
/** And the newest few, whatever their age. */
const TALLY_STEPS_KEPT = 3;
/** A tally is folded once it has this many pending entries, or one this old. */
const FOLD_BATCH = 32;
const FOLD_AFTER_MS = 5_000;
const FOLDS_AT_ONCE = 4;

/** A ledger and its tallies in two collections (one service writes both). */
export function tallyLedger(names: { entries: string; tallies: string; model: string }) {
  const ledgerEntrySchema = new Schema(
    {
      _id: { type: String, required: true },
      pollId: { type: String, required: true },
      voteId: { type: String, required: true },
      rev: { type: Number, required: true, min: 1 },
      from: { type: String, default: null },
      to: { type: String, default: null },
      /** Present (true) until folded into a tally: the index then holds only what is still to fold. */
      pending: { type: Boolean },
      at: { type: Date, required: true, default: () => new Date() },
    },
    { collection: names.entries, versionKey: false },
  );
  ledgerEntrySchema.index({ pollId: 1, pending: 1 });
  ledgerEntrySchema.index({ pending: 1 });
  const LedgerModel = model(`${names.model}LedgerEntry`, ledgerEntrySchema);

  const tallySchema = new Schema(
    {
      _id: { type: String, required: true },
      pollId: { type: String, required: true },
      seq: { type: Number, required: true, min: 1 },
      /** Count per value (an array: values are data, not field names). */
      counts: { type: [{ _id: false, logoId: { type: String, required: true }, votes: { type: Number, required: true } }], required: true },
      /** The ledger entries this step added. */
      folded: { type: [String], required: true },
      at: { type: Date, required: true, default: () => new Date() },
    },
    { collection: names.tallies, versionKey: false },
  );
  tallySchema.index({ pollId: 1 });
  const TallyModel = model(`${names.model}Tally`, tallySchema);

  /**
   * Writes revision `rev` of a member's value; false when that revision exists already (another request
   * for the same member wrote it first, or this one is being repeated).
   */
  async function append(entry: Omit<LedgerEntry, '_id'>): Promise<boolean> {
    try {
      await LedgerModel.create({ _id: ledgerEntryId(entry.voteId, entry.rev), ...entry, pending: true });
      return true;
    } catch (error: unknown) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** A member's entries from revision `after + 1` on, in order (usually none or one). */
  async function entriesAfter(voteId: string, after: number): Promise<LedgerEntry[]> {
    const entries: LedgerEntry[] = [];
    for (let rev = after + 1; ; rev++) {
      const entry = await LedgerModel.findById(ledgerEntryId(voteId, rev), { pollId: 1, voteId: 1, rev: 1, from: 1, to: 1 }).lean();
      if (!entry) return entries;
      entries.push(entry as LedgerEntry);
    }
  }

  /** A member's newest revision and value, at or after a revision known to exist (0: none known). */
  async function head(voteId: string, known = 0): Promise<{ rev: number; value: string | null }> {
    const newest = (await entriesAfter(voteId, known)).at(-1);
    return newest ? { rev: newest.rev, value: newest.to } : { rev: known, value: null };
  }

  interface TallyStep {
    seq: number;
    counts: Counts;
    folded: string[];
    at: Date;
  }

  async function tallySteps(pollId: string): Promise<TallyStep[]> {
    const rows = await TallyModel.find({ pollId }, { seq: 1, counts: 1, folded: 1, at: 1 }).lean();
    return rows
      .map((row) => ({
        seq: row.seq,
        counts: new Map(row.counts.map(({ logoId, votes }) => [logoId, votes])),
        folded: row.folded,
        at: row.at,
      }))
      .sort((a, b) => b.seq - a.seq);
  }

  const pendingEntries = (pollId: string) =>
    LedgerModel.find({ pollId, pending: true }, { from: 1, to: 1, at: 1 }).lean() as unknown as Promise<
      { _id: string; from: string | null; to: string | null; at: Date }[]
    >;

  /** Exact count per value of a tally (values counted zero are absent). */
  async function readCounts(pollId: string): Promise<Counts> {
    // Pending first, tallies second: see the module comment.
    const pending = await pendingEntries(pollId);
    const steps = await tallySteps(pollId);
    const folded = new Set(steps.flatMap((step) => step.folded));
    return applyEntries(
      steps[0]?.counts ?? new Map(),
      pending.filter((entry) => !folded.has(entry._id)),
    );
  }

  /** When a tally last changed (its newest step or pending entry), or null if it never did. */
  async function lastChangeAt(pollId: string): Promise<Date | null> {
    const [steps, pending] = await Promise.all([tallySteps(pollId), pendingEntries(pollId)]);
    const times = [...steps, ...pending].map((item) => item.at.getTime());
    return times.length === 0 ? null : new Date(Math.max(...times));
  }

  /** Whether anything of a tally is stored (entries or steps). */
  async function hasTally(pollId: string): Promise<boolean> {
    return (await LedgerModel.exists({ pollId })) !== null || (await TallyModel.exists({ pollId })) !== null;
  }

  async function markFolded(pollId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    // The filter FerretDB can send to PostgreSQL (tally, pending) keeps the scan to this tally's pending entries.
    await LedgerModel.updateMany({ pollId, pending: true, _id: { $in: ids } }, { $unset: { pending: 1 } });
  }

  /**
   * Adds a step after `steps[0]` that counts `entries` (the ones it lists in `folded`; entries written
   * already folded are counted without being listed), then prunes steps no reader can still need.
   * False when another folder added that step first.
   */
  async function addStep(
    pollId: string,
    steps: TallyStep[],
    entries: Pick<LedgerEntry, 'from' | 'to'>[],
    folded: string[],
    now: Date,
  ): Promise<boolean> {
    const newest = steps[0];
    const seq = (newest?.seq ?? 0) + 1;
    try {
      await TallyModel.create({
        _id: tallyId(pollId, seq),
        pollId,
        seq,
        counts: [...applyEntries(newest?.counts ?? new Map(), entries)].map(([logoId, votes]) => ({ logoId, votes })),
        folded,
        at: now,
      });
    } catch (error: unknown) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    await markFolded(pollId, folded);
    const prunable = steps
      .slice(TALLY_STEPS_KEPT - 1)
      .filter((step) => now.getTime() - step.at.getTime() > TALLY_KEPT_MS)
      .map((step) => tallyId(pollId, step.seq));
    for (const id of prunable) await TallyModel.deleteOne({ _id: id });
    return true;
  }

  /**
   * Folds a tally's pending entries into a new step. Any number of folders may run at once (replicas):
   * the step's unique key lets one of them win, and every step is finished (its entries marked folded,
   * old steps pruned) by whoever comes next if its folder stops. Resolves with how many entries this
   * call folded.
   */
  async function fold(pollId: string, now: Date = new Date()): Promise<number> {
    const steps = await tallySteps(pollId);
    // Finish the previous fold first: its entries must stop looking pending before a new step lists others.
    if (steps[0]) await markFolded(pollId, steps[0].folded);
    const alreadyFolded = new Set(steps.flatMap((step) => step.folded));
    const pending = (await pendingEntries(pollId)).filter((entry) => !alreadyFolded.has(entry._id));
    if (pending.length === 0) return 0;
    const folded = pending.map((entry) => entry._id);
    return (await addStep(pollId, steps, pending, folded, now)) ? folded.length : 0;
  }

  /**
   * Writes many members' entries of one tally already folded, and one step that counts them (bulk
   * loads: fixtures and the benchmark's million votes). Readers see them all at once, when the step is in.
   */
  async function appendFolded(pollId: string, entries: Omit<LedgerEntry, '_id' | 'pollId'>[], now: Date = new Date()): Promise<void> {
    await LedgerModel.insertMany(entries.map((entry) => ({ _id: ledgerEntryId(entry.voteId, entry.rev), pollId, ...entry, at: now })));
    while (!(await addStep(pollId, await tallySteps(pollId), entries, [], now))) {
      // another folder took that step: count ours in the next one
    }
  }

  /**
   * One pass of a folder: folds every tally with enough pending entries, or with old ones. Readers stay
   * exact either way; folding keeps what they read small.
   */
  async function foldDue(now: Date = new Date()): Promise<number> {
    const pending = (await LedgerModel.find({ pending: true }, { pollId: 1, at: 1 }).limit(20_000).lean()) as {
      pollId: string;
      at: Date;
    }[];
    const byTally = new Map<string, { count: number; oldest: number }>();
    for (const entry of pending) {
      const tally = byTally.get(entry.pollId) ?? { count: 0, oldest: Infinity };
      tally.count += 1;
      tally.oldest = Math.min(tally.oldest, entry.at.getTime());
      byTally.set(entry.pollId, tally);
    }
    const due = [...byTally]
      .filter(([, { count, oldest }]) => count >= FOLD_BATCH || now.getTime() - oldest >= FOLD_AFTER_MS)
      .map(([pollId]) => pollId);
    // A few tallies at a time: under load a lone folder's queries wait behind the voters' and it falls behind.
    let folded = 0;
    const worker = async () => {
      for (let pollId = due.pop(); pollId !== undefined; pollId = due.pop()) folded += await fold(pollId, now);
    };
    await Promise.all(Array.from({ length: FOLDS_AT_ONCE }, worker));
    return folded;
  }

  /** Removes a tally's entries and steps. */
  async function deleteTally(pollId: string): Promise<number> {
    const [entries] = await Promise.all([LedgerModel.deleteMany({ pollId }), TallyModel.deleteMany({ pollId })]);
    return entries.deletedCount;
  }

  return {
    LedgerModel,
    TallyModel,
    append,
    appendFolded,
    entriesAfter,
    head,
    readCounts,
    lastChangeAt,
    hasTally,
    fold,
    foldDue,
    deleteTally,
  } as const;
}
