import Router from '@koa/router';
import { HOUR_MS, REPORT_MESSAGES, ReportRequest, type ReportResponse } from '@logovote/contracts';
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
import { HttpError, hashIp, jsonBody, parseJsonBody, pollOr404, requireCsrf } from '@logovote/service-kit';
import { maskProfanity } from '../profanity';

export interface ReportsRouteOptions {
  csrfSecret: string;
  ipHashSalt: string;
  /** Reports from distinct addresses in one review round that hide the poll. */
  reportsToHide: number;
  /** Reports one address may make in a sliding hour, across polls. */
  reportsPerAddressPerHour: number;
}

/** POST /api/sessions/{sessionId}/reports: a voter reports a poll (docs/moderation.md). */
export function reportsRouter(options: ReportsRouteOptions): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });
  const limit = options.reportsPerAddressPerHour;

  /** The 429, with when the oldest report of the hour stops counting. */
  const rateLimited = (oldest: Date | undefined, now: Date) =>
    new HttpError(429, REPORT_MESSAGES.rateLimited(limit), {
      'Retry-After': String(Math.max(1, Math.ceil(((oldest?.getTime() ?? now.getTime()) + HOUR_MS - now.getTime()) / 1000))),
    });

  // The anti-forgery token and the poll are checked as for a vote; the reporter is its network address
  // (the keyed hash the votes service already stores for the per-address cap, never the address).
  router.post('/reports', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const { category, note } = parseJsonBody(ctx, ReportRequest);
    const poll = pollOr404(await findActivePoll(ctx.params.sessionId, ['_id']));
    const ipHash = hashIp(options.ipHashSalt, ctx.ip);
    const { round } = await readPollStatus(poll._id);
    const body: ReportResponse = { sessionId: poll._id, reported: true };
    ctx.set('Cache-Control', 'no-store');
    // A repeat answers as the first report did, without counting again or using up the rate.
    if (await hasReported(poll._id, round, ipHash)) {
      ctx.body = body;
      return;
    }
    const now = new Date();
    const before = await reportsOfAddressSince(ipHash, now);
    if (before.length >= limit) throw rateLimited(before[0]?.at, now);
    const stored = await insertReport({
      pollId: poll._id,
      round,
      ipHash,
      category,
      ...(note ? { note: maskProfanity(note) } : {}),
      at: now,
    });
    if (stored === 'stored') {
      // Requests of one address that raced past the check: the oldest `limit` of its hour stand, the
      // others take their report back (each decides on the same order, so exactly `limit` stay).
      const after = await reportsOfAddressSince(ipHash, new Date());
      if (after.findIndex((report) => report.id === reportKey(poll._id, round, ipHash)) >= limit) {
        await withdrawReport(poll._id, round, ipHash);
        throw rateLimited(after[0]?.at, new Date());
      }
      await hideIfReportedEnough(poll._id, round, options.reportsToHide);
    }
    ctx.body = body;
  });

  return router;
}
