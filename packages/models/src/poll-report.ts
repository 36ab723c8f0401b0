import { Schema } from 'mongoose';
import { REPORT_CATEGORIES, type ReportCategory } from '@logovote/contracts';
import { hideInRound, markReported } from './poll-status';
import { claimOnce, removeClaims } from './store/claim-once';
import { primitiveCollection } from './store/collections';

/**
 * Voters' reports of polls (docs/moderation.md), written by the votes service. The rounds they count in,
 * and whether they hid the poll, are part of the poll's status (./poll-status).
 *
 * A report is claimed once under `<pollId>#<round>#<ipHash>`: one per network address per poll per
 * round, however many requests race, and never changed. Every read is an equality lookup on an indexed
 * field. How many reports an address may make is a rate ticket's business (./rate-ticket).
 */
const pollReportSchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    /** `<pollId>#<round>`: the round's reports in one equality lookup. */
    round: { type: String, required: true },
    category: { type: String, enum: REPORT_CATEGORIES, required: true },
    note: { type: String },
    at: { type: Date, required: true },
  },
  { collection: 'poll_reports', versionKey: false },
);
pollReportSchema.index({ round: 1 });
pollReportSchema.index({ pollId: 1 });
export const PollReportModel = primitiveCollection('claimOnce', 'PollReport', pollReportSchema);

export const roundKey = (pollId: string, round: number) => `${pollId}#${round}`;
export const reportKey = (pollId: string, round: number, ipHash: string) => `${roundKey(pollId, round)}#${ipHash}`;

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
  return (await PollReportModel.exists({ _id: reportKey(pollId, round, ipHash) })) !== null;
}

/**
 * Stores a report: 'stored', or 'repeat' when this address reported the poll in this round already
 * (the first report stands, counted once), or 'refused' when `admit` (asked only for a new report: the
 * address's rate) refused it, which takes the claim back. Marks the round as reported for the admin list.
 */
export async function insertReport(report: NewReport, admit?: () => Promise<boolean>): Promise<'stored' | 'repeat' | 'refused'> {
  const at = report.at ?? new Date();
  const key = reportKey(report.pollId, report.round, report.ipHash);
  const stored = await claimOnce(PollReportModel, {
    _id: key,
    pollId: report.pollId,
    round: roundKey(report.pollId, report.round),
    category: report.category,
    ...(report.note ? { note: report.note } : {}),
    at,
  });
  if (!stored) return 'repeat';
  if (admit && !(await admit())) {
    await removeClaims(PollReportModel, { _id: key });
    return 'refused';
  }
  await markReported(report.pollId, report.round, at);
  return 'stored';
}

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
 * poll is hidden in that round now. Idempotent: two requests that both see the threshold hide it once.
 */
export async function hideIfReportedEnough(pollId: string, round: number, threshold: number, now = new Date()): Promise<boolean> {
  const reports = await PollReportModel.countDocuments({ round: roundKey(pollId, round) });
  if (reports < threshold) return false;
  return hideInRound(pollId, round, now);
}

/** Removes a poll's reports (with the poll). */
export async function deleteReports(pollId: string): Promise<void> {
  await removeClaims(PollReportModel, { pollId });
}

/** Whether any report of a poll is left. */
export async function hasReports(pollId: string): Promise<boolean> {
  return (await PollReportModel.exists({ pollId })) !== null;
}
