/**
 * Rate tickets on the real store (FerretDB on PostgreSQL in `npm test`): a limit holds exactly while requests
 * race, windows slide, the window that frees a ticket last is the one named, and the sweep removes only the
 * tickets of past days.
 */
import { randomBytes } from 'node:crypto';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '@logovote/contracts';
import { claimRateTicket, removeRateTickets, sweepRateTickets } from '../src';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../../../tests/support/integration';
import { storedModel } from './support';

const RateTicketModel = storedModel<{ subject: string; at: Date }>('rate_tickets');

jest.setTimeout(60_000);

beforeAll(() => connectTestDatabase(testDatabaseUri('rate_tickets')));
afterAll(() => dropTestDatabase());

const newBucket = () => `test:${randomBytes(6).toString('hex')}`;

/** The next `count` tickets of a bucket, claimed `agoMs` ago. */
async function takenEarlier(bucket: string, count: number, agoMs: number) {
  const at = Date.now() - agoMs;
  for (let n = 0; n < count; n++)
    expect(await claimRateTicket(bucket, [{ limit: 1000, windowMs: DAY_MS }], () => at)).toEqual({ allowed: true });
}

it('allows exactly the limit to requests that race for it', async () => {
  const bucket = newBucket();
  const claims = await Promise.all(Array.from({ length: 24 }, () => claimRateTicket(bucket, [{ limit: 7, windowMs: HOUR_MS }])));
  expect(claims.filter((claim) => claim.allowed)).toHaveLength(7);
  expect(await RateTicketModel.countDocuments({ subject: bucket })).toBe(7);
  const refused = claims.find((claim) => !claim.allowed);
  expect(refused).toMatchObject({ allowed: false, window: { limit: 7, windowMs: HOUR_MS } });
});

it('slides: a ticket taken a window ago frees its place, and the refusal says when the oldest one does', async () => {
  const bucket = newBucket();
  const window = { limit: 3, windowMs: HOUR_MS };
  await takenEarlier(bucket, 1, HOUR_MS + 1000);
  await takenEarlier(bucket, 2, 30 * MINUTE_MS);
  // Ticket 3 needs ticket 0 out of the window: it is.
  expect(await claimRateTicket(bucket, [window])).toEqual({ allowed: true });
  // Ticket 4 needs ticket 1 out of the window: in about 30 minutes.
  const refused = await claimRateTicket(bucket, [window]);
  expect(refused.allowed).toBe(false);
  if (refused.allowed) return;
  expect(refused.retryAfterSeconds).toBeGreaterThan(29 * 60);
  expect(refused.retryAfterSeconds).toBeLessThanOrEqual(30 * 60);
});

it('names the window that frees a ticket last when several refuse', async () => {
  const bucket = newBucket();
  const hour = { limit: 2, windowMs: HOUR_MS };
  const day = { limit: 4, windowMs: DAY_MS };
  await takenEarlier(bucket, 4, 10 * MINUTE_MS);
  const refused = await claimRateTicket(bucket, [hour, day]);
  expect(refused).toMatchObject({ allowed: false, window: day });
  if (refused.allowed) return;
  expect(refused.retryAfterSeconds).toBeGreaterThan(DAY_MS / 1000 - 11 * 60);

  // Only the hourly limit is reached: the hour is named.
  const other = newBucket();
  await takenEarlier(other, 2, 10 * MINUTE_MS);
  expect(await claimRateTicket(other, [hour, day])).toMatchObject({ allowed: false, window: hour });
});

it('counts buckets apart, and removes one bucket whole', async () => {
  const [a, b] = [newBucket(), newBucket()];
  const window = { limit: 1, windowMs: HOUR_MS };
  expect(await claimRateTicket(a, [window])).toEqual({ allowed: true });
  expect(await claimRateTicket(b, [window])).toEqual({ allowed: true });
  expect((await claimRateTicket(a, [window])).allowed).toBe(false);
  await removeRateTickets(a);
  expect(await RateTicketModel.countDocuments({ subject: a })).toBe(0);
  expect(await RateTicketModel.countDocuments({ subject: b })).toBe(1);
});

it('sweeps the tickets whose windows ended before today, and keeps the others', async () => {
  const bucket = newBucket();
  const now = new Date('2026-11-25T12:00:00Z');
  // Tickets whose longest windows end on these days (a day-long window, taken the day before).
  const endDays = ['2026-11-20', '2026-11-24', '2026-11-25', '2026-11-26'];
  for (const day of endDays) {
    const taken = new Date(`${day}T06:00:00Z`).getTime() - DAY_MS;
    expect(await claimRateTicket(bucket, [{ limit: 10, windowMs: DAY_MS }], () => taken)).toEqual({ allowed: true });
  }
  await sweepRateTickets(now);
  const left = await RateTicketModel.find({ subject: bucket }, { at: 1, _id: 0 }).lean();
  expect(left.map((ticket) => ticket.at.toISOString().slice(0, 10)).sort()).toEqual(['2026-11-25', '2026-11-26']);
});
