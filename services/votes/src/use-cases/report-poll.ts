import { HOUR_MS, type ReportCategory } from '@logovote/contracts';
import {
  findActivePoll,
  hasReported,
  hideIfReportedEnough,
  insertReport,
  readPollStatus,
  reportKey,
  reportsOfAddressSince,
  withdrawReport,
} from '@logovote/models';
import { hashIp } from '@logovote/service-kit';
import { maskProfanity } from '../profanity';

export interface ReportPollDeps {
  ipHashSalt: string;
  /** Reports from distinct addresses in one review round that hide the poll. */
  reportsToHide: number;
  /** Reports one address may make in a sliding hour, across polls. */
  reportsPerAddressPerHour: number;
}

export interface ReportPollRequest {
  sessionId: string | undefined;
  category: ReportCategory;
  note?: string | undefined;
  /** The reporter's network address (kept only as the keyed hash the votes service stores for the per-address cap). */
  ip: string;
}

export type ReportPollOutcome =
  /** Counted, or a repeat of this address's report in this round (answered the same, counted once). */
  | { outcome: 'reported'; pollId: string }
  | { outcome: 'poll-not-found' }
  /** The address made its hour's reports already; `retryAfterSeconds`: until the oldest stops counting. */
  | { outcome: 'rate-limited'; retryAfterSeconds: number };

/** Seconds until a report made at `oldest` stops counting against its address's hour. */
const secondsUntilHourPassed = (oldest: Date | undefined, now: Date) =>
  Math.max(1, Math.ceil(((oldest?.getTime() ?? now.getTime()) + HOUR_MS - now.getTime()) / 1000));

/** Reporting a poll, the use case (docs/moderation.md): one report per address per review round; enough of them hide the poll. */
export function pollReporter(deps: ReportPollDeps): (request: ReportPollRequest) => Promise<ReportPollOutcome> {
  const limit = deps.reportsPerAddressPerHour;
  return async ({ sessionId, category, note, ip }) => {
    const poll = await findActivePoll(sessionId, ['_id']);
    if (!poll) return { outcome: 'poll-not-found' };
    const pollId = poll._id;
    const ipHash = hashIp(deps.ipHashSalt, ip);
    const { round } = await readPollStatus(pollId);
    const reported = { outcome: 'reported', pollId } as const;
    // A repeat answers as the first report did, without counting again or using up the rate.
    if (await hasReported(pollId, round, ipHash)) return reported;
    const now = new Date();
    const before = await reportsOfAddressSince(ipHash, now);
    if (before.length >= limit) return { outcome: 'rate-limited', retryAfterSeconds: secondsUntilHourPassed(before[0]?.at, now) };
    const stored = await insertReport({ pollId, round, ipHash, category, ...(note ? { note: maskProfanity(note) } : {}), at: now });
    if (stored === 'stored') {
      // Requests of one address that raced past the check: the oldest `limit` of its hour stand, the
      // others take their report back (each decides on the same order, so exactly `limit` stay).
      const after = await reportsOfAddressSince(ipHash, new Date());
      if (after.findIndex((report) => report.id === reportKey(pollId, round, ipHash)) >= limit) {
        await withdrawReport(pollId, round, ipHash);
        return { outcome: 'rate-limited', retryAfterSeconds: secondsUntilHourPassed(after[0]?.at, new Date()) };
      }
      await hideIfReportedEnough(pollId, round, deps.reportsToHide);
    }
    return reported;
  };
}
