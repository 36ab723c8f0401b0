import Router from '@koa/router';
import {
  CREATOR_TOKEN_HEADER,
  CREATOR_TOKEN_REJECTED,
  NotifyRequest,
  channelVotingUrl,
  manageLink,
  pollLinks,
  type NotifyResponse,
} from '@logovote/contracts';
import { findActivePoll, isCreatorTokenOf, recordNotifyActivity } from '@logovote/models';
import {
  HttpError,
  derivedKey,
  hashIp,
  jsonBody,
  parseJsonBody,
  pollOr404,
  requireCsrf,
  type Logger,
  type ObjectStore,
} from '@logovote/service-kit';
import { linksEmail } from '../links-email';
import { emailedLogos } from '../logo-thumbnails';
import type { Mailer } from '../mailer';
import { claimEmail, recipientHash, type EmailLimits, type EmailRefusal } from '../send-limit';

export interface NotifyRouteOptions {
  logger: Logger;
  mailer: Mailer;
  store: ObjectStore;
  csrfSecret: string;
  publicOrigin: string;
  limits: EmailLimits;
}

export const SEND_FAILED = 'Failed to send email: the mail server did not accept it. Your poll and its links are still valid.';

/** What a refused e-mail's 429 says, by the limit that refused it. */
function emailLimitMessage({ limitedBy, limit }: EmailRefusal): string {
  switch (limitedBy) {
    case 'poll':
      return `This poll has already sent ${limit} emails in the last hour. Please try again later.`;
    case 'sender':
      return `Email limit reached: at most ${limit} emails with poll links can be sent per hour from the same network address. Please try again later.`;
    case 'recipient':
      return `Email limit reached: this address has already been sent ${limit} emails with poll links in the last 24 hours. Please try again later.`;
  }
}

/** POST /api/sessions/{sessionId}/notify: e-mails the creator the voting (and channels') and results links. */
export function notifyRouter(options: NotifyRouteOptions): Router {
  const router = new Router();
  // Keyed hashes only: neither the client's address nor the recipient's is stored for the limits (SECURITY.md).
  const senderKey = derivedKey(options.csrfSecret, 'links-email-senders');
  const recipientKey = derivedKey(options.csrfSecret, 'links-email-recipients');

  router.post('/api/sessions/:sessionId/notify', requireCsrf(options.csrfSecret), jsonBody(), async (ctx) => {
    const { email } = parseJsonBody(ctx, NotifyRequest);
    const poll = pollOr404(await findActivePoll(ctx.params.sessionId, ['_id', 'feedbackPrompt', 'logos', 'channels']));
    // The private manage link (docs/closing.md) goes only to whoever holds the poll's creator token.
    const creatorToken = ctx.get(CREATOR_TOKEN_HEADER) || undefined;
    if (creatorToken !== undefined && !(await isCreatorTokenOf(poll._id, creatorToken))) throw new HttpError(403, CREATOR_TOKEN_REJECTED);

    const refusal = await claimEmail(
      {
        pollId: poll._id,
        senderHash: hashIp(senderKey, ctx.ip),
        recipientHash: recipientHash(recipientKey, email),
      },
      options.limits,
    );
    if (refusal) throw new HttpError(429, emailLimitMessage(refusal), { 'Retry-After': String(refusal.retryAfterSeconds) });

    try {
      const manageUrl = creatorToken === undefined ? undefined : manageLink(options.publicOrigin, poll._id, creatorToken);
      const logos = await emailedLogos(options.store, poll.logos, options.logger);
      const content = { logos, ...(poll.feedbackPrompt ? { question: poll.feedbackPrompt } : {}) };
      const links = pollLinks(options.publicOrigin, poll._id);
      const channelVotingUrls = (poll.channels ?? []).map((channel) => channelVotingUrl(links.votingUrl, channel.id));
      await options.mailer.send(linksEmail(email, { ...links, channelVotingUrls }, content, manageUrl));
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
