import { createHmac } from 'node:crypto';
import { DAY_MS, HOUR_MS } from '@logovote/contracts';
import { claimRateTicket } from '@logovote/models';

/** How many links e-mails may go out: per poll and per sender address in any hour, per recipient in any 24 hours. */
export interface EmailLimits {
  perPollPerHour: number;
  perSenderPerHour: number;
  perRecipientPerDay: number;
}

/** Who a links e-mail is counted against: the poll, and keyed hashes of the client's network and of the recipient's mailbox. */
export interface LinksEmail {
  pollId: string;
  senderHash: string;
  recipientHash: string;
}

export type EmailRefusal = { limitedBy: 'poll' | 'sender' | 'recipient'; limit: number; retryAfterSeconds: number };

/** The rate bucket of a poll's e-mails (removed with the poll). */
export const pollEmailsBucket = (pollId: string) => `links-emails-poll:${pollId}`;

/**
 * Counts one links e-mail against the poll's, the sender's and the recipient's limits, in that order, and
 * stops at the first that refuses (what was counted before it stays counted). The recipient's comes last:
 * a sender past its own limit cannot use up a stranger's allowance without sending anything, which would
 * keep that person from getting their own poll's links.
 */
export async function claimEmail(email: LinksEmail, limits: EmailLimits): Promise<EmailRefusal | undefined> {
  const counted: [EmailRefusal['limitedBy'], string, number, number][] = [
    ['poll', pollEmailsBucket(email.pollId), limits.perPollPerHour, HOUR_MS],
    ['sender', `links-emails-sender:${email.senderHash}`, limits.perSenderPerHour, HOUR_MS],
    ['recipient', `links-emails-recipient:${email.recipientHash}`, limits.perRecipientPerDay, DAY_MS],
  ];
  for (const [limitedBy, bucket, limit, windowMs] of counted) {
    const claim = await claimRateTicket(bucket, [{ limit, windowMs }]);
    if (!claim.allowed) return { limitedBy, limit, retryAfterSeconds: claim.retryAfterSeconds };
  }
  return undefined;
}

/** Providers that deliver `first.last` and `firstlast` to one mailbox. */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/** The keyed hash a recipient is counted by: the address itself is not stored for the limit. */
export function recipientHash(key: Buffer, email: string): string {
  return createHmac('sha256', key).update(mailboxOf(email)).digest('hex');
}

/**
 * The mailbox an address delivers to, as far as it can be told from the address: case folded, without a
 * `+tag`, and without dots where the provider ignores them, so spelling variants of one address count as one
 * recipient.
 */
export function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1).toLowerCase();
  let local = email.slice(0, at).toLowerCase().split('+')[0] ?? '';
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) local = local.replaceAll('.', '');
  return `${local}@${dotless ?? domain}`;
}
