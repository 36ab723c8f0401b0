import { HOUR_MS, type ReportCategory } from '@logovote/contracts';
import { claimRateTicket, findActivePoll, hasReported, hideIfReportedEnough, insertReport, readPollStatus } from '@logovote/models';
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
  /** The address made its hour's reports already; `retryAfterSeconds`: until one of them stops counting. */
  | { outcome: 'rate-limited'; retryAfterSeconds: number };

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
    // A new report takes one of its address's rate tickets (a sliding hour, across polls, exact under races);
    // racing repeats of it find the claim taken and take none.
    let retryAfterSeconds = 0;
    const admit = async () => {
      const ticket = await claimRateTicket(`reports:${ipHash}`, [{ limit, windowMs: HOUR_MS }]);
      if (!ticket.allowed) retryAfterSeconds = ticket.retryAfterSeconds;
      return ticket.allowed;
    };
    const stored = await insertReport({ pollId, round, ipHash, category, ...(note ? { note: maskProfanity(note) } : {}) }, admit);
    if (stored === 'refused') return { outcome: 'rate-limited', retryAfterSeconds };
    if (stored === 'stored') await hideIfReportedEnough(pollId, round, deps.reportsToHide);
    return reported;
  };
}
