import { Schema, model } from 'mongoose';

/**
 * Exact vote counts that a reader gets in a bounded number of small reads, on MongoDB and on FerretDB,
 * without transactions and without trusting `$inc` or any read-modify-write (FerretDB 1.x loses
 * concurrent updates of one document). Only inserts with unique keys decide anything; see
 * docs/vote-counts.md.
 *
 * - The ledger holds one entry per change of a voter's vote, keyed `<voteId>#<rev>`: rev 1 is the first
 *   vote (from null), each later rev moves the vote from one logo to another, and `to: null` withdraws a
 *   vote the per-address cap refused. The unique key makes a revision impossible to write twice, so the
 *   entries of one voter always chain: each entry's `from` is the previous entry's `to`.
 * - Entries carry `pending: true` until a fold has added them to the poll's tally.
 * - A tally is one insert-only step of a per-poll chain keyed `<pollId>#<seq>`: the counts after folding
 *   the entries it lists in `folded` into the previous step. Two folders racing for the same step: one
 *   insert wins, the other's is refused and it gives up.
 *
 * Counts = the newest tally + the pending entries no kept tally has folded. A reader reads the pending
 * entries first and the tallies second, so an entry that a fold takes meanwhile is found in the tally's
 * `folded` list and counted once.
 */

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
  { collection: 'vote_ledger', versionKey: false },
);
ledgerEntrySchema.index({ pollId: 1, pending: 1 });
ledgerEntrySchema.index({ pending: 1 });

export const VoteLedgerModel = model('VoteLedgerEntry', ledgerEntrySchema);

const tallySchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    seq: { type: Number, required: true, min: 1 },
    /** Votes per logo (an array: logo ids are data, not field names). */
    counts: { type: [{ _id: false, logoId: { type: String, required: true }, votes: { type: Number, required: true } }], required: true },
    /** The ledger entries this step added. */
    folded: { type: [String], required: true },
    at: { type: Date, required: true, default: () => new Date() },
  },
  { collection: 'vote_tallies', versionKey: false },
);
tallySchema.index({ pollId: 1 });

export const VoteTallyModel = model('VoteTally', tallySchema);

export interface LedgerEntry {
  _id: string;
  pollId: string;
  voteId: string;
  rev: number;
  from: string | null;
  to: string | null;
}

export const ledgerEntryId = (voteId: string, rev: number): string => `${voteId}#${rev}`;
/** Zero-padded so that the keys of one poll sort in step order. */
const tallyId = (pollId: string, seq: number): string => `${pollId}#${String(seq).padStart(10, '0')}`;

const DUPLICATE_KEY = 11000;
export const isDuplicateKey = (error: unknown): boolean => (error as { code?: unknown }).code === DUPLICATE_KEY;

/**
 * Writes revision `rev` of a voter's vote; false when that revision exists already (another request of
 * the same voter wrote it first, or this one is being repeated).
 */
export async function appendLedgerEntry(entry: Omit<LedgerEntry, '_id'>): Promise<boolean> {
  try {
    await VoteLedgerModel.create({ _id: ledgerEntryId(entry.voteId, entry.rev), ...entry, pending: true });
    return true;
  } catch (error: unknown) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/** A voter's entries from revision `after + 1` on, in order (usually none or one). */
export async function ledgerEntriesAfter(voteId: string, after: number): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  for (let rev = after + 1; ; rev++) {
    const entry = await VoteLedgerModel.findById(ledgerEntryId(voteId, rev), { pollId: 1, voteId: 1, rev: 1, from: 1, to: 1 }).lean();
    if (!entry) return entries;
    entries.push(entry as LedgerEntry);
  }
}

type Counts = Map<string, number>;

function applyEntries(counts: Counts, entries: Pick<LedgerEntry, 'from' | 'to'>[]): Counts {
  const next = new Map(counts);
  for (const { from, to } of entries) {
    if (from !== null) next.set(from, (next.get(from) ?? 0) - 1);
    if (to !== null) next.set(to, (next.get(to) ?? 0) + 1);
  }
  for (const [logoId, count] of next) if (count === 0) next.delete(logoId);
  return next;
}

interface TallyStep {
  seq: number;
  counts: Counts;
  folded: string[];
  at: Date;
}

async function tallySteps(pollId: string): Promise<TallyStep[]> {
  const rows = await VoteTallyModel.find({ pollId }, { seq: 1, counts: 1, folded: 1, at: 1 }).lean();
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
  VoteLedgerModel.find({ pollId, pending: true }, { from: 1, to: 1, at: 1 }).lean() as unknown as Promise<
    { _id: string; from: string | null; to: string | null; at: Date }[]
  >;

/** Exact votes per logo id of a poll (logos without votes are absent). */
export async function readVoteCounts(pollId: string): Promise<Counts> {
  // Pending first, tallies second: see the module comment.
  const pending = await pendingEntries(pollId);
  const steps = await tallySteps(pollId);
  const folded = new Set(steps.flatMap((step) => step.folded));
  return applyEntries(
    steps[0]?.counts ?? new Map(),
    pending.filter((entry) => !folded.has(entry._id)),
  );
}

/** A tally step is kept at least this long, so a reader that read pending entries before it still finds it. */
const TALLY_KEPT_MS = 60_000;
/** And the newest few, whatever their age. */
const TALLY_STEPS_KEPT = 3;

async function markFolded(pollId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  // The filter FerretDB can send to PostgreSQL (poll, pending) keeps the scan to this poll's pending entries.
  await VoteLedgerModel.updateMany({ pollId, pending: true, _id: { $in: ids } }, { $unset: { pending: 1 } });
}

/**
 * Folds a poll's pending ledger entries into a new tally step. Any number of folders may run at once
 * (replicas of the votes service): the step's unique key lets one of them win, and every step is
 * finished (its entries marked folded, old steps pruned) by whoever comes next if its folder stops.
 * Resolves with how many entries this call folded.
 */
export async function foldPoll(pollId: string, now: Date = new Date()): Promise<number> {
  const steps = await tallySteps(pollId);
  const head = steps[0];
  // Finish the previous fold first: its entries must stop looking pending before a new step lists others.
  if (head) await markFolded(pollId, head.folded);
  const alreadyFolded = new Set(steps.flatMap((step) => step.folded));
  const pending = (await pendingEntries(pollId)).filter((entry) => !alreadyFolded.has(entry._id));
  if (pending.length === 0) return 0;
  const seq = (head?.seq ?? 0) + 1;
  const folded = pending.map((entry) => entry._id);
  try {
    await VoteTallyModel.create({
      _id: tallyId(pollId, seq),
      pollId,
      seq,
      counts: [...applyEntries(head?.counts ?? new Map(), pending)].map(([logoId, votes]) => ({ logoId, votes })),
      folded,
      at: now,
    });
  } catch (error: unknown) {
    if (isDuplicateKey(error)) return 0;
    throw error;
  }
  await markFolded(pollId, folded);
  const prunable = steps
    .slice(TALLY_STEPS_KEPT - 1)
    .filter((step) => now.getTime() - step.at.getTime() > TALLY_KEPT_MS)
    .map((step) => tallyId(pollId, step.seq));
  for (const id of prunable) await VoteTallyModel.deleteOne({ _id: id });
  return folded.length;
}

/** A poll is folded once it has this many pending entries, or one this old. */
export const FOLD_BATCH = 32;
export const FOLD_AFTER_MS = 5_000;

/**
 * One pass of the votes service's folder: folds every poll with enough pending entries, or with old
 * ones. Readers stay exact either way; folding keeps what they read small.
 */
export async function foldDuePolls(now: Date = new Date()): Promise<number> {
  const pending = (await VoteLedgerModel.find({ pending: true }, { pollId: 1, at: 1 }).limit(20_000).lean()) as {
    pollId: string;
    at: Date;
  }[];
  const byPoll = new Map<string, { count: number; oldest: number }>();
  for (const entry of pending) {
    const poll = byPoll.get(entry.pollId) ?? { count: 0, oldest: Infinity };
    poll.count += 1;
    poll.oldest = Math.min(poll.oldest, entry.at.getTime());
    byPoll.set(entry.pollId, poll);
  }
  let folded = 0;
  for (const [pollId, { count, oldest }] of byPoll) {
    if (count >= FOLD_BATCH || now.getTime() - oldest >= FOLD_AFTER_MS) folded += await foldPoll(pollId, now);
  }
  return folded;
}

/** Removes a poll's ledger and tallies (with its votes, when the poll is deleted). */
export async function deleteVoteHistory(pollId: string): Promise<number> {
  const [entries] = await Promise.all([VoteLedgerModel.deleteMany({ pollId }), VoteTallyModel.deleteMany({ pollId })]);
  return entries.deletedCount;
}
