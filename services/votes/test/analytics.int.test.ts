import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { ANALYTICS_RETENTION_DAYS, DAY_MS, MAX_ANALYTICS_BATCH } from '@logovote/contracts';
import {
  hasVoteData,
  purgeVotesOfDeletedPolls,
  recordAnalyticsEvents,
  sweepAnalyticsEvents,
  recordPollCreating,
  recordPollDeleting,
} from '@logovote/models';
import { storedModel } from '@logovote/models/test-support';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import {
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
  connectTestDatabase,
  dropTestDatabase,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';

const config = loadConfig({ MONGODB_URI: testDatabaseUri('analytics'), CSRF_SECRET: TEST_CSRF_SECRET, IP_HASH_SALT: TEST_IP_HASH_SALT });
let server: Server;
/** The events as stored, to look under the log. */
const AnalyticsEventModel = storedModel<{ name: string; sessionId?: string; logoId?: string; sawAllLogos?: boolean; at: Date }>(
  'analytics_events',
);

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [AnalyticsEventModel]);
  server = createServer(buildApp({ logger: silentLogger, config }).callback());
});
afterAll(dropTestDatabase);

const event = (name: string, extra: Record<string, string> = {}) => ({
  name,
  path: '/vote/AAAAAAAAAAAAAAAA',
  occurredAt: new Date().toISOString(),
  ...extra,
});
const send = (body: unknown) =>
  request(server)
    .post('/api/analytics/events')
    .send(body as object);

describe('analytics collector', () => {
  it('stores a batch and answers 202 at once', async () => {
    const res = await send({
      events: [event('page_view'), event('vote_submitted', { session_id: 'AAAAAAAAAAAAAAAA', logo_id: 'AAAAAAAAAAAAAAAA-logo1' })],
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ accepted: 2 });
    const stored = await AnalyticsEventModel.find({ name: 'vote_submitted' }).lean();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ path: '/vote/AAAAAAAAAAAAAAAA', sessionId: 'AAAAAAAAAAAAAAAA', logoId: 'AAAAAAAAAAAAAAAA-logo1' });
  });

  it("stores whether the voter had seen every logo before voting, with the vote's event", async () => {
    const vote = (logo: string, sawAll: boolean) => ({
      ...event('vote_confirmed', { session_id: 'BBBBBBBBBBBBBBBB', logo_id: logo }),
      saw_all_logos: sawAll,
    });
    const res = await send({ events: [vote('BBBBBBBBBBBBBBBB-logo1', false), vote('BBBBBBBBBBBBBBBB-logo2', true)] });
    expect(res.status).toBe(202);
    const stored = await AnalyticsEventModel.find({ sessionId: 'BBBBBBBBBBBBBBBB' }).lean();
    expect(stored.map(({ logoId, sawAllLogos }) => ({ logoId, sawAllLogos })).sort((a, b) => a.logoId!.localeCompare(b.logoId!))).toEqual([
      { logoId: 'BBBBBBBBBBBBBBBB-logo1', sawAllLogos: false },
      { logoId: 'BBBBBBBBBBBBBBBB-logo2', sawAllLogos: true },
    ]);
  });

  it('accepts what sendBeacon sends: a JSON blob', async () => {
    const res = await request(server)
      .post('/api/analytics/events')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ events: [event('results_viewed')] }));
    expect(res.status).toBe(202);
  });

  it.each([
    ['an unknown event name', { events: [event('clicked_everything')] }],
    ['an empty batch', { events: [] }],
    ['a batch that is too large', { events: Array.from({ length: MAX_ANALYTICS_BATCH + 1 }, () => event('page_view')) }],
    ['a bad timestamp', { events: [{ ...event('page_view'), occurredAt: 'yesterday' }] }],
    ['no events field', { name: 'page_view' }],
    ['saw_all_logos that is not true or false', { events: [{ ...event('vote_confirmed'), saw_all_logos: 'yes' }] }],
  ])('refuses %s with 400 and stores nothing', async (_, body) => {
    const before = await AnalyticsEventModel.countDocuments();
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(await AnalyticsEventModel.countDocuments()).toBe(before);
  });
});

describe('analytics retention', () => {
  it('sweeps the days past ANALYTICS_RETENTION_DAYS and keeps the rest', async () => {
    const now = Date.now();
    const day = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);
    const path = `/retention-${now}`;
    const kept = { name: 'page_view' as const, path, occurredAt: new Date(now).toISOString() };
    await recordAnalyticsEvents([kept, kept], day(ANALYTICS_RETENTION_DAYS + 3));
    await recordAnalyticsEvents([kept], day(ANALYTICS_RETENTION_DAYS - 1));
    await recordAnalyticsEvents([kept], day(0));
    expect(await AnalyticsEventModel.countDocuments({ path })).toBe(4);
    expect(await sweepAnalyticsEvents(new Date(now))).toBeGreaterThanOrEqual(2);
    expect((await AnalyticsEventModel.find({ path }).lean()).map((stored) => stored.at.getTime()).sort()).toEqual(
      [day(ANALYTICS_RETENTION_DAYS - 1), day(0)].map((at) => at.getTime()),
    );
  });

  it("removes a deleted poll's events with its votes, and no other poll's", async () => {
    const [deleted, other] = ['DDDDDDDDDDDDDDDD', 'EEEEEEEEEEEEEEEE'];
    const res = await send({ events: [event('results_viewed', { session_id: deleted }), event('results_viewed', { session_id: other })] });
    expect(res.status).toBe(202);
    await expect(hasVoteData(deleted)).resolves.toBe(true);
    await recordPollCreating(deleted);
    await recordPollDeleting(deleted);
    await purgeVotesOfDeletedPolls();
    await expect(hasVoteData(deleted)).resolves.toBe(false);
    expect(await AnalyticsEventModel.countDocuments({ sessionId: deleted })).toBe(0);
    expect(await AnalyticsEventModel.countDocuments({ sessionId: other })).toBe(1);
  });
});
