import { Schema, model } from 'mongoose';
import { REPORT_CATEGORIES, type ReportCategory } from '@logovote/contracts';
import { isDuplicateKey } from './tally-ledger';
import { signalPollVisibility } from './vote-signals';

/**
 * Voters' reports of polls and the admin's reviews of them (issue 18, docs/moderation.md).
 *
 * Everything is insert-only under unique keys, never a counter or a read-modify-write (FerretDB 1.x
 * loses concurrent updates), and every read is an equality lookup on an indexed field (all FerretDB
 * sends to PostgreSQL).
 *
 * A poll's reports are counted in rounds: round 0 starts with the poll, and each review by the admin
 * ends the current round, so the reports before it no longer count. A report is keyed
 * `<pollId>#<round>#<ipHash>`: one per network address per poll per round, however many requests race.
 *
 * Beside the reports, a poll's moderation entries (`poll_moderation`), keyed `<pollId>#<round>#<kind>`:
 * - 'reported': the round has reports (the admin list reads these; one per poll awaiting review);
 * - 'hidden': the round reached the threshold: the poll is hidden pending review;
 * - 'reviewed': the admin reviewed (restored) the poll, which starts round + 1.
 * The votes service writes reports, 'reported' and 'hidden'; the sessions service (admin) writes
 * 'reviewed' and removes the round's other entries. Everything goes with the poll.
 */
const pollReportSchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    /** `<pollId>#<round>`: the round's reports in one equality lookup. */
    round: { type: String, required: true },
    /** `<ipHash>|<hour since the epoch>`: an address's reports of the last hour in two equality lookups (the rate limit). */
    addressHour: { type: String, required: true },
    category: { type: String, enum: REPORT_CATEGORIES, required: true },
    note: { type: String },
    at: { type: Date, required: true },
  },
  { collection: 'poll_reports', versionKey: false },
);
pollReportSchema.index({ round: 1 });
pollReportSchema.index({ addressHour: 1 });
pollReportSchema.index({ pollId: 1 });
export const PollReportModel = model('PollReport', pollReportSchema);

export const MODERATION_KINDS = ['reported', 'hidden', 'reviewed'] as const;
type ModerationKind = (typeof MODERATION_KINDS)[number];

const pollModerationSchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    kind: { type: String, enum: MODERATION_KINDS, required: true },
    round: { type: Number, required: true, min: 0 },
    at: { type: Date, required: true },
  },
  { collection: 'poll_moderation', versionKey: false },
);
pollModerationSchema.index({ pollId: 1 });
pollModerationSchema.index({ kind: 1 });
export const PollModerationModel = model('PollModeration', pollModerationSchema);

const HOUR_MS = 60 * 60 * 1000;
const roundKey = (pollId: string, round: number) => `${pollId}#${round}`;
const reportId = (pollId: string, round: number, ipHash: string) => `${roundKey(pollId, round)}#${ipHash}`;
const entryId = (pollId: string, round: number, kind: ModerationKind) => `${roundKey(pollId, round)}#${kind}`;
const addressHour = (ipHash: string, at: Date) => `${ipHash}|${Math.floor(at.getTime() / HOUR_MS)}`;

/** Inserts a document unless its key exists: false when it did. */
async function insertOnce(create: () => Promise<unknown>): Promise<boolean> {
  try {
    await create();
    return true;
  } catch (error: unknown) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

export interface ModerationStateOfPoll {
  /** The round reports count in now (the number of reviews so far). */
  round: number;
  /** Hidden pending review: this round's reports reached the threshold. */
  hidden: boolean;
  /** When this round's first report came (null: none yet). */
  reportedAt: Date | null;
}

/** A poll's moderation state: one equality lookup, a few small entries (two per review). */
export async function readModerationState(pollId: string): Promise<ModerationStateOfPoll> {
  const entries = await PollModerationModel.find({ pollId }, { kind: 1, round: 1, at: 1 }).lean();
  const round = entries.reduce((current, entry) => (entry.kind === 'reviewed' ? Math.max(current, entry.round + 1) : current), 0);
  const reported = entries.find((entry) => entry.kind === 'reported' && entry.round === round);
  const hidden = entries.some((entry) => entry.kind === 'hidden' && entry.round === round);
  return { round, hidden, reportedAt: reported?.at ?? null };
}

export interface NewReport {
  pollId: string;
  round: number;
  /** The reporter's network address, as the keyed hash the votes service stores (never the address). */
  ipHash: string;
  category: ReportCategory;
  note?: string;
  at?: Date;
}

/** Whether this address has reported the poll in this round already. */
export async function hasReported(pollId: string, round: number, ipHash: string): Promise<boolean> {
  return (await PollReportModel.exists({ _id: reportId(pollId, round, ipHash) })) !== null;
}

/**
 * Stores a report: 'stored', or 'repeat' when this address reported the poll in this round already
 * (the first report stands, counted once). Marks the round as reported for the admin list.
 */
export async function insertReport(report: NewReport): Promise<'stored' | 'repeat'> {
  const at = report.at ?? new Date();
  const stored = await insertOnce(() =>
    PollReportModel.create({
      _id: reportId(report.pollId, report.round, report.ipHash),
      pollId: report.pollId,
      round: roundKey(report.pollId, report.round),
      addressHour: addressHour(report.ipHash, at),
      category: report.category,
      ...(report.note ? { note: report.note } : {}),
      at,
    }),
  );
  if (stored) await markRound(report.pollId, report.round, 'reported', at);
  return stored ? 'stored' : 'repeat';
}

/**
 * Stores reports in bulk with their rounds' 'reported' entries, by the product's own key scheme:
 * fixtures and measurements, not for use beside live reporting (no threshold is checked).
 */
export async function insertReportsInBulk(reports: NewReport[]): Promise<void> {
  const BATCH = 1_000;
  const stamped = reports.map((report) => ({ ...report, at: report.at ?? new Date() }));
  for (let start = 0; start < stamped.length; start += BATCH) {
    await PollReportModel.insertMany(
      stamped.slice(start, start + BATCH).map((report) => ({
        _id: reportId(report.pollId, report.round, report.ipHash),
        pollId: report.pollId,
        round: roundKey(report.pollId, report.round),
        addressHour: addressHour(report.ipHash, report.at),
        category: report.category,
        ...(report.note ? { note: report.note } : {}),
        at: report.at,
      })),
    );
  }
  const rounds = [...new Map(stamped.map((report) => [entryId(report.pollId, report.round, 'reported'), report])).entries()];
  for (let start = 0; start < rounds.length; start += BATCH) {
    await PollModerationModel.insertMany(
      rounds
        .slice(start, start + BATCH)
        .map(([id, report]) => ({ _id: id, pollId: report.pollId, kind: 'reported', round: report.round, at: report.at })),
    );
  }
}

/** Takes back a report this request stored (the address was over its rate meanwhile). */
export async function withdrawReport(pollId: string, round: number, ipHash: string): Promise<void> {
  await PollReportModel.deleteOne({ _id: reportId(pollId, round, ipHash) });
}

/** A marker of a round ('reported', 'hidden'); the first one written stays. */
async function markRound(pollId: string, round: number, kind: Exclude<ModerationKind, 'reviewed'>, at: Date): Promise<void> {
  await insertOnce(() => PollModerationModel.create({ _id: entryId(pollId, round, kind), pollId, kind, round, at }));
}

/**
 * When an address's reports in the hour before `now` were made, oldest first, each with its key: two
 * equality lookups (this hour's and the previous hour's bucket), however many reports are stored.
 */
export async function reportsOfAddressSince(ipHash: string, now: Date): Promise<{ id: string; at: Date }[]> {
  const since = now.getTime() - HOUR_MS;
  const buckets = [addressHour(ipHash, new Date(since)), addressHour(ipHash, now)];
  const rows = (
    await Promise.all([...new Set(buckets)].map((bucket) => PollReportModel.find({ addressHour: bucket }, { at: 1 }).lean()))
  ).flat();
  return rows
    .filter((row) => row.at.getTime() > since)
    .map((row) => ({ id: row._id, at: row.at }))
    .sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The key reportsOfAddressSince names a report by. */
export const reportKey = reportId;

export interface StoredReport {
  category: ReportCategory;
  note?: string;
  at: Date;
}

/** A round's reports (one equality lookup). */
export async function reportsOfRound(pollId: string, round: number): Promise<StoredReport[]> {
  const rows = await PollReportModel.find({ round: roundKey(pollId, round) }, { category: 1, note: 1, at: 1, _id: 0 }).lean();
  return rows.map((row) => ({ category: row.category as ReportCategory, ...(row.note ? { note: row.note } : {}), at: row.at }));
}

/**
 * Hides the poll once its round has `threshold` reports (distinct addresses). Resolves whether the
 * poll is hidden in that round now. Idempotent: two requests that both see the threshold write one entry.
 */
export async function hideIfReportedEnough(pollId: string, round: number, threshold: number, now = new Date()): Promise<boolean> {
  const reports = await PollReportModel.countDocuments({ round: roundKey(pollId, round) });
  if (reports < threshold) return false;
  await markRound(pollId, round, 'hidden', now);
  // Open live results streams of the poll end (docs/moderation.md).
  await signalPollVisibility(pollId, now.getTime());
  return true;
}

/**
 * The admin's review of a round: the poll is restored (shown and votable again) and the round's
 * reports no longer count. Reviewing the same round again changes nothing. Resolves with the round
 * that starts.
 */
export async function recordReview(pollId: string, round: number, now = new Date()): Promise<number> {
  await insertOnce(() => PollModerationModel.create({ _id: entryId(pollId, round, 'reviewed'), pollId, kind: 'reviewed', round, at: now }));
  // The ended round's markers only make reads longer (the reviewed entry decides); its reports stay
  // until the poll goes, as the record of what was reviewed.
  await PollModerationModel.deleteOne({ _id: entryId(pollId, round, 'reported') });
  await PollModerationModel.deleteOne({ _id: entryId(pollId, round, 'hidden') });
  return round + 1;
}

/** The polls with a 'reported' entry (an equality lookup on `kind`), most recently reported first: the admin list's candidates. */
export async function reportedPollEntries(): Promise<{ pollId: string; round: number; at: Date }[]> {
  const entries = await PollModerationModel.find({ kind: 'reported' }, { pollId: 1, round: 1, at: 1, _id: 0 }).lean();
  return entries.map(({ pollId, round, at }) => ({ pollId, round, at })).sort((a, b) => b.at.getTime() - a.at.getTime());
}

/** The polls with a 'hidden' entry (an equality lookup on `kind`). */
export async function hiddenPollIds(): Promise<string[]> {
  return (await PollModerationModel.find({ kind: 'hidden' }, { pollId: 1, _id: 0 }).lean()).map((entry) => entry.pollId);
}

/** Removes a poll's reports and moderation entries (with the poll). */
export async function deleteReports(pollId: string): Promise<void> {
  await PollReportModel.deleteMany({ pollId });
  await PollModerationModel.deleteMany({ pollId });
}

/** Whether any report or moderation entry of a poll is left. */
export async function hasReports(pollId: string): Promise<boolean> {
  return (await PollReportModel.exists({ pollId })) !== null || (await PollModerationModel.exists({ pollId })) !== null;
}
