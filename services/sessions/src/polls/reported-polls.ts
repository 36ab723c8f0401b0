import { REPORTED_POLL_NOTES, type ReportCategory, type ReportedPoll } from '@logovote/contracts';
import { readActivePoll, pollsAwaitingReview, reportsOfRound, voteLedger } from '@logovote/models';
import { logosWithCounts } from './vote-counts';

/** Polls the admin list shows at most: the hidden ones first, then the most recently reported. */
export const REPORTED_POLLS_SHOWN = 100;

/** One poll of the admin list, or null when it has no reports in its current round (or is gone). */
async function reportedPoll(pollId: string): Promise<ReportedPoll | null> {
  const found = await readActivePoll(pollId);
  if (!found) return null;
  const { poll, status: state } = found;
  if (state.reportedAt === null) return null;
  const [reports, counts] = await Promise.all([reportsOfRound(pollId, state.round), voteLedger.readCounts(pollId)]);
  if (reports.length === 0) return null;
  reports.sort((a, b) => b.at.getTime() - a.at.getTime());
  const reasons = new Map<ReportCategory, number>();
  for (const report of reports) reasons.set(report.category, (reasons.get(report.category) ?? 0) + 1);
  return {
    pollId,
    feedbackPrompt: poll.feedbackPrompt ?? null,
    round: state.round,
    reports: reports.length,
    reasons: [...reasons].map(([category, count]) => ({ category, count })).sort((a, b) => b.count - a.count),
    notes: reports
      .flatMap((report) => (report.note ? [{ category: report.category, note: report.note, at: report.at.toISOString() }] : []))
      .slice(0, REPORTED_POLL_NOTES),
    firstReportAt: (reports.at(-1)?.at ?? state.reportedAt).toISOString(),
    lastReportAt: (reports[0]?.at ?? state.reportedAt).toISOString(),
    hidden: state.hidden,
    logos: logosWithCounts(poll.logos, counts),
  };
}

/**
 * The polls with reports since their last review (GET /api/admin/reports), hidden ones first, then by
 * their newest report. Reads the statuses awaiting review by equality, then three equality lookups per
 * poll shown: what it reads grows with the polls awaiting review, not with the polls or reports stored.
 */
export async function listReportedPolls(): Promise<ReportedPoll[]> {
  const awaiting = await pollsAwaitingReview();
  // A hidden poll is always shown; the others while there is room, the most recently reported first.
  const candidates = [...awaiting.filter((poll) => poll.hidden), ...awaiting.filter((poll) => !poll.hidden)]
    .map((poll) => poll.pollId)
    .slice(0, REPORTED_POLLS_SHOWN);
  const polls = (await Promise.all(candidates.map(reportedPoll))).filter((poll): poll is ReportedPoll => poll !== null);
  return polls.sort((a, b) => Number(b.hidden) - Number(a.hidden) || b.lastReportAt.localeCompare(a.lastReportAt));
}
