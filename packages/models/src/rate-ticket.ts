import { Schema, model } from 'mongoose';
import { isDuplicateKey } from './tally-ledger';

/**
 * Rate limits that hold exactly under concurrency (FerretDB loses concurrent `$inc`s, so a counter
 * document would not): each allowed action of a subject (an address's poll creations, the e-mails one
 * recipient gets...) takes the next ticket of the subject's bucket, `<bucket>#<n>`, with a unique insert.
 * Ticket n is allowed only if ticket n - limit was taken a whole window ago (or is gone, swept as
 * expired): then at most `limit` tickets fall in any window, as a sliding window, whatever races. Two
 * requests that race for the same ticket cannot both get it; the loser reads the bucket again.
 *
 * Read with equality lookups alone (all FerretDB 1.24 sends to PostgreSQL): a bucket's tickets by
 * `bucket`, expired tickets by the UTC day they stop limiting anything (`expiresOn`). FerretDB refuses
 * TTL indexes, so a sweep (the sessions service's, for every bucket) deletes whole days past.
 */
const rateTicketSchema = new Schema(
  {
    /** `<bucket>#<n>`: the unique key that decides races. */
    _id: { type: String, required: true },
    /** What is limited and whose: `<limit name>:<subject>`, the subject a keyed hash or a poll id. */
    bucket: { type: String, required: true },
    n: { type: Number, required: true },
    at: { type: Date, required: true },
    /** The UTC day (`2026-11-25`) on which the ticket's longest window ends. */
    expiresOn: { type: String, required: true },
  },
  { collection: 'rate_tickets', versionKey: false },
);
rateTicketSchema.index({ bucket: 1 });
rateTicketSchema.index({ expiresOn: 1 });
export const RateTicketModel = model('RateTicket', rateTicketSchema);

export interface RateWindow {
  /** Actions allowed in any window of `windowMs`. */
  limit: number;
  windowMs: number;
}

export type RateClaim =
  | { allowed: true }
  /** `window` is the window that frees a ticket last; `retryAfterSeconds` is when it does. */
  | { allowed: false; window: RateWindow; retryAfterSeconds: number };

const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Takes the next ticket of `bucket` if every window allows it; otherwise says which window refuses, and
 * in how many seconds it frees a ticket. Ends: each retry means another request took a ticket.
 */
export async function claimRateTicket(bucket: string, windows: readonly RateWindow[]): Promise<RateClaim> {
  const longestMs = Math.max(...windows.map((window) => window.windowMs));
  for (;;) {
    const tickets = await RateTicketModel.find({ bucket }, { n: 1, at: 1, _id: 0 }).lean();
    const now = Date.now();
    const takenAt = new Map(tickets.map((ticket) => [ticket.n, ticket.at.getTime()]));
    const next = tickets.reduce((highest, ticket) => Math.max(highest, ticket.n), -1) + 1;
    let refusal: Extract<RateClaim, { allowed: false }> | undefined;
    for (const window of windows) {
      const freedAt = (takenAt.get(next - window.limit) ?? -Infinity) + window.windowMs;
      const retryAfterSeconds = Math.max(1, Math.ceil((freedAt - now) / 1000));
      if (freedAt > now && (!refusal || retryAfterSeconds > refusal.retryAfterSeconds))
        refusal = { allowed: false, window, retryAfterSeconds };
    }
    if (refusal) return refusal;
    try {
      await RateTicketModel.create({ _id: `${bucket}#${next}`, bucket, n: next, at: new Date(now), expiresOn: utcDay(now + longestMs) });
      return { allowed: true };
    } catch (error: unknown) {
      if (!isDuplicateKey(error)) throw error;
    }
  }
}

/** Removes every ticket of a bucket (its subject is deleted: a poll). */
export async function removeRateTickets(bucket: string): Promise<void> {
  await RateTicketModel.deleteMany({ bucket });
}

/** Days before today that a sweep looks at (it runs hourly): tickets of a database left without any sweep for longer stay, limiting nothing. */
const SWEPT_DAYS = 30;

/** Deletes the tickets whose windows all ended before today (UTC), one equality lookup per day; resolves with how many. */
export async function sweepRateTickets(now = new Date()): Promise<number> {
  let removed = 0;
  for (let daysAgo = 1; daysAgo <= SWEPT_DAYS; daysAgo++) {
    removed += (await RateTicketModel.deleteMany({ expiresOn: utcDay(now.getTime() - daysAgo * DAY_MS) })).deletedCount;
  }
  return removed;
}
