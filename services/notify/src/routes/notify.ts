import Router from '@koa/router';
import { CREATOR_TOKEN_HEADER, NotifyRequest, manageLink, pollLinks, type NotifyResponse } from '@logovote/contracts';
import { findActivePollOr404, recordNotifyActivity, requireCreatorToken } from '@logovote/models';
import { HttpError, jsonBody, parseJsonBody, requireCsrf, type Logger } from '@logovote/service-kit';
import { linksEmail } from '../links-email';
import type { Mailer } from '../mailer';
import { claimEmailSlot } from '../send-limit';

export interface NotifyRouteOptions {
  logger: Logger;
  mailer: Mailer;
  csrfSecret: string;
  publicOrigin: string;
  emailsPerPollPerHour: number;
}

export const SEND_FAILED = 'Failed to send email: the mail server did not accept it. Your poll and its links are still valid.';

/** POST /api/sessions/{sessionId}/notify: e-mails the creator the voting and results links. */
export function notifyRouter(options: NotifyRouteOptions): Router {
  const router = new Router();

  router.post('/api/sessions/:sessionId/notify', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const { email } = parseJsonBody(ctx, NotifyRequest);
    const poll = await findActivePollOr404(ctx.params.sessionId, ['_id']);
    // The private manage link (docs/closing.md) goes only to whoever holds the poll's creator token.
    const creatorToken = ctx.get(CREATOR_TOKEN_HEADER) || undefined;
    if (creatorToken !== undefined) await requireCreatorToken(poll._id, creatorToken);

    const claim = await claimEmailSlot(poll._id, options.emailsPerPollPerHour);
    if (!claim.allowed) {
      throw new HttpError(
        429,
        `This poll has already sent ${options.emailsPerPollPerHour} emails in the last hour. Please try again later.`,
        {
          'Retry-After': String(claim.retryAfterSeconds),
        },
      );
    }

    try {
      const manageUrl = creatorToken === undefined ? undefined : manageLink(options.publicOrigin, poll._id, creatorToken);
      await options.mailer.send(linksEmail(email, pollLinks(options.publicOrigin, poll._id), manageUrl));
    } catch (error: unknown) {
      // Only what says why: the SMTP error text may quote the address.
      const { code, responseCode, command } = error as { code?: unknown; responseCode?: unknown; command?: unknown };
      options.logger.warn({ pollId: poll._id, code, responseCode, command }, 'sending the links failed');
      await recordNotifyActivity(poll._id);
      throw new HttpError(502, SEND_FAILED);
    }
    // Recorded once the links really went to that address: the admin's 'Creator Email' is one that received them.
    await recordNotifyActivity(poll._id, email);
    const body: NotifyResponse = { message: 'Email sent', email };
    ctx.body = body;
  });

  return router;
}
