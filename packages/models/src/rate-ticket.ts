import { DAY_MS } from '@logovote/contracts';
import { timeBucketedLog } from './store/time-bucketed-log';

/**
 * Rate limits that hold exactly under concurrency (FerretDB loses concurrent `$inc`s, so a counter
 * document would not): each allowed action of a subject (an address's poll creations, the e-mails one
 * recipient gets...) claims the next ticket of the subject, `<subject>#<n>`, once. Ticket n is allowed
 * only if ticket n - limit was taken a whole window ago (or is gone, swept as expired): then at most
 * `limit` tickets fall in any window, as a sliding window, whatever races. Two requests that race for
 * the same ticket cannot both get it; the loser reads the subject's tickets again.
 *
 * A subject's tickets are one equality lookup on `subject`. Tickets form a time-bucketed log
 * (./store/time-bucketed-log) by the UTC day their longest window ends, so a sweep drops whole days.
 */
const tickets = timeBucketedLog<{ subject: string; n: number; takenAt: Date }>({
  name: 'rate-tickets',
  collection: 'rate_tickets',
  model: 'RateTicket',
  fields: {
    /** What is limited and whose: `<limit name>:<subject>`, the subject a keyed hash or a poll id. */
    subject: { type: String, required: true },
    n: { type: Number, required: true },
    takenAt: { type: Date, required: true },
  },
  indexed: ['subject'],
  spansMs: [DAY_MS],
});

export interface RateWindow {
  /** Actions allowed in any window of `windowMs`. */
  limit: number;
  windowMs: number;
}

export type RateClaim =
  | { allowed: true }
  /** `window` is the window that frees a ticket last; `retryAfterSeconds` is when it does. */
  | { allowed: false; window: RateWindow; retryAfterSeconds: number };

/**
 * Takes the next ticket of `subject` if every window allows it; otherwise says which window refuses, and
 * in how many seconds it frees a ticket. Ends: each retry means another request took a ticket.
 * `clock` gives the time (tests take tickets in the past).
 */
export async function claimRateTicket(subject: string, windows: readonly RateWindow[], clock: () => number = Date.now): Promise<RateClaim> {
  const longestMs = Math.max(...windows.map((window) => window.windowMs));
  for (;;) {
    const taken = await tickets.recordsWhere('subject', subject);
    const now = clock();
    const takenAt = new Map(taken.map((ticket) => [ticket.n, ticket.takenAt.getTime()]));
    const next = taken.reduce((highest, ticket) => Math.max(highest, ticket.n), -1) + 1;
    let refusal: Extract<RateClaim, { allowed: false }> | undefined;
    for (const window of windows) {
      const freedAt = (takenAt.get(next - window.limit) ?? -Infinity) + window.windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil((freedAt - now) / 1000));
      if (freedAt > now && (!refusal || retryAfterSeconds > refusal.retryAfterSeconds))
        refusal = { allowed: false, window, retryAfterSeconds };
    }
    if (refusal) return refusal;
    // Logged at the moment its longest window ends: the sweep drops it with that day.
    if (await tickets.append(`${subject}#${next}`, { subject, n: next, takenAt: new Date(now) }, new Date(now + longestMs)))
      return { allowed: true };
  }
}

/** Removes every ticket of a subject (it is deleted: a poll). */
export async function removeRateTickets(subject: string): Promise<void> {
  await tickets.removeWhere('subject', subject);
}

/** Deletes the tickets whose windows all ended before today (UTC); resolves with how many. */
export async function sweepRateTickets(now = new Date()): Promise<number> {
  return tickets.sweep(now.getTime());
}
