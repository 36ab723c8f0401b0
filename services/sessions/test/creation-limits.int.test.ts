/**
 * Poll creations per network address on the real store: the hourly and the daily limit hold for requests
 * that race, answer 429 with Retry-After and the limit that refuses, count the address the gateway saw, and
 * refuse before the upload is read or checked.
 */
import type { Server } from 'node:http';
import request from 'supertest';
import { DAY_MS, HOUR_MS } from '@logovote/contracts';
import type { ModerationProvider, UploadPipeline } from '@logovote/media-pipeline';
import { claimRateTicket } from '@logovote/models';
import { derivedKey, hashIp, type ObjectStore } from '@logovote/service-kit';
import {
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
  connectTestDatabase,
  dropTestDatabase,
  isolatedStore,
  removeBucket,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { buildApp } from '../src/app';
import { requestLimits } from '../src/config';
import { PUBLIC_ORIGIN } from './support';
import { storedModel } from '@logovote/models/test-support';

const RateTicketModel = storedModel('rate_tickets');

jest.setTimeout(30_000);

let store: ObjectStore;
let server: Server;
/** Uploads that reached the checks: none of these tests may get that far. */
let inspected = 0;
const pipeline: UploadPipeline = {
  moderation: {} as ModerationProvider,
  inspect: () => {
    inspected++;
    return Promise.reject(new Error('no upload should be checked here'));
  },
};

beforeAll(async () => {
  await connectTestDatabase(testDatabaseUri('creation_limits'), []);
  store = await isolatedStore('creation-limits');
  const limits = { ...requestLimits(), creations: { perHour: 3, perDay: 5 } };
  server = buildApp({
    logger: silentLogger,
    store,
    pipeline,
    csrfSecret: TEST_CSRF_SECRET,
    ipHashSalt: TEST_IP_HASH_SALT,
    publicOrigin: PUBLIC_ORIGIN,
    limits,
  }).listen(0, '127.0.0.1');
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await removeBucket(store);
  await dropTestDatabase();
});

/** A creation request without a logo (400 once counted) or with one, from `address` as the gateway saw it. */
const creation = (address: string, forwardedFor = address) => {
  const req = request(server).post('/api/sessions').set('X-Forwarded-For', forwardedFor).field('feedbackPrompt', 'Which one?');
  return { empty: () => req, withLogo: () => req.attach('logos', Buffer.from('not checked'), 'a.png') };
};

const hourly = 'Poll limit reached: at most 3 polls can be created per hour from the same network address. Please try again later.';
const daily = 'Poll limit reached: at most 5 polls can be created per day from the same network address. Please try again later.';

it('counts every request of an address, lets the hourly number through when they race, and refuses the rest before reading them', async () => {
  const answers = await Promise.all(Array.from({ length: 8 }, () => creation('203.0.113.10').empty()));
  expect(answers.map((res) => res.status).sort()).toEqual([400, 400, 400, 429, 429, 429, 429, 429]);
  for (const refused of answers.filter((res) => res.status === 429)) {
    expect(refused.body).toEqual({ message: hourly });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
  }
  const withLogo = await creation('203.0.113.10').withLogo();
  expect(withLogo.status).toBe(429);
  expect(inspected).toBe(0);
});

it('counts the address the gateway appended, not what the client wrote before it', async () => {
  for (let n = 0; n < 3; n++) await creation('203.0.113.20', `10.0.0.${n}, 203.0.113.20`).empty().expect(400);
  expect((await creation('203.0.113.20', '10.0.0.99, 203.0.113.20').empty()).status).toBe(429);
  // Another address is not limited by it.
  await creation('203.0.113.21').empty().expect(400);
});

it('refuses past the daily number with the time the oldest creation of the day stops counting', async () => {
  const address = '203.0.113.30';
  const bucket = `poll-creations:${hashIp(derivedKey(TEST_CSRF_SECRET, 'poll-creations-per-address'), address)}`;
  // Three creations 20 hours ago (out of the hour, in the day), then two now: the day is full.
  const at = Date.now() - 20 * HOUR_MS;
  for (let n = 0; n < 3; n++) expect((await claimRateTicket(bucket, [{ limit: 10, windowMs: DAY_MS }], () => at)).allowed).toBe(true);
  await creation(address).empty().expect(400);
  await creation(address).empty().expect(400);
  const refused = await creation(address).empty();
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({ message: daily });
  const retryAfter = Number(refused.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(3 * 3600);
  expect(retryAfter).toBeLessThanOrEqual(4 * 3600);
});

it('stores a keyed hash of the address, never the address', async () => {
  await creation('192.0.2.44').empty().expect(400);
  expect(JSON.stringify(await RateTicketModel.find({}).lean())).not.toContain('192.0.2.44');
});
