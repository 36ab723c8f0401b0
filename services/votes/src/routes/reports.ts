import Router from '@koa/router';
import { REPORT_MESSAGES, ReportRequest, type ReportResponse } from '@logovote/contracts';
import { HttpError, jsonBody, parseJsonBody, pollNotFound, requireCsrf } from '@logovote/service-kit';
import { pollReporter, type ReportPollDeps } from '../use-cases/report-poll';

export interface ReportsRouteOptions extends ReportPollDeps {
  csrfSecret: string;
}

/** POST /api/sessions/{sessionId}/reports: a voter reports a poll (docs/moderation.md). */
export function reportsRouter(options: ReportsRouteOptions): Router {
  const router = new Router({ prefix: '/api/sessions/:sessionId' });
  const reportPoll = pollReporter(options);

  // The anti-forgery token and the poll are checked as for a vote; the reporter is its network address.
  router.post('/reports', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const { category, note } = parseJsonBody(ctx, ReportRequest);
    const report = await reportPoll({ sessionId: ctx.params.sessionId, category, note, ip: ctx.ip });
    if (report.outcome === 'poll-not-found') throw pollNotFound();
    ctx.set('Cache-Control', 'no-store');
    if (report.outcome === 'rate-limited') {
      throw new HttpError(429, REPORT_MESSAGES.rateLimited(options.reportsPerAddressPerHour), {
        'Retry-After': String(report.retryAfterSeconds),
      });
    }
    const body: ReportResponse = { sessionId: report.pollId, reported: true };
    ctx.body = body;
  });

  return router;
}
