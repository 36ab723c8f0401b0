import type { Server } from 'node:http';
import mongoose from 'mongoose';
import request from 'supertest';
import { DAY_MS, HOUR_MS } from '@logovote/contracts';
import { recordAdminLoginFailure, sweepAdminLoginFailures } from '@logovote/models';
import { connectMongo, createServiceApp, disconnectMongo } from '@logovote/service-kit';
import { TEST_CSRF_SECRET, silentLogger, testDatabaseUri } from '../../../tests/support/integration';
import { ADMIN_CREDENTIALS_REQUIRED, ADMIN_LOGIN_BACKOFF, adminLoginRouter } from '../src/routes/admin-login';
import { storedModel } from '@logovote/models/test-support';

const AdminLoginFailureModel = storedModel('admin_login_failures');
const LogBucketModel = storedModel<{ parent: string; start: number }>('log_buckets');

// Connecting creates the collections and their indexes, which can take seconds on a busy FerretDB.
jest.setTimeout(30_000);

const POLICY = '?free=5&backoff=30&max=600';
/** A policy no race reaches the back-off of: every guess is counted. */
const LENIENT = '?free=1000&backoff=30&max=600';
let server: Server;

beforeAll(async () => {
  await connectMongo(testDatabaseUri('admin-login'), silentLogger);
  server = createServiceApp({
    service: 'sessions',
    logger: silentLogger,
    routers: [adminLoginRouter(TEST_CSRF_SECRET)],
    readiness: [],
  }).listen(0, '127.0.0.1');
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await mongoose.connection.dropDatabase();
  await disconnectMongo();
});

const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
const fail = (address: string, authorization?: string, policy = POLICY) => {
  const req = request(server).post(`/internal/admin-login/failures${policy}`).set('X-Admin-Login-Address', address);
  return authorization ? req.set('Authorization', authorization) : req;
};
const check = (address: string) => request(server).get(`/internal/admin-login/check${POLICY}`).set('X-Admin-Login-Address', address);

describe('failed admin sign-ins', () => {
  it('counts each distinct wrong credential exactly once, however many race, and backs the address off', async () => {
    const address = '198.51.100.1';
    // 40 guesses at once, 4 of them sent 5 times each: 20 distinct wrong credentials.
    const guesses = Array.from({ length: 40 }, (_, index) => basic(index < 20 ? `wrong-${index}` : `wrong-${index % 4}`));
    const answers = await Promise.all(guesses.map((guess) => fail(address, guess, LENIENT)));
    for (const answer of answers) expect(answer.status).toBe(401);
    const stored = await AdminLoginFailureModel.find({}).lean();
    expect(stored).toHaveLength(20);
    // Neither the address nor a credential is stored.
    expect(JSON.stringify(stored)).not.toMatch(/198\.51\.100\.1|wrong-|YWRtaW46/);

    const refused = await check(address);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: ADMIN_LOGIN_BACKOFF });
    // 20 failures, 5 free: 30 s doubled 15 times, capped at 600 s.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(590);
    const backingOff = await fail(address, basic('another'));
    expect(backingOff.status).toBe(429);
    expect(backingOff.headers['retry-after']).toBeDefined();
    // Nothing is recorded while the address backs off.
    expect(await AdminLoginFailureModel.countDocuments({})).toBe(20);

    // Another address is not affected.
    expect((await check('198.51.100.2')).status).toBe(204);
  });

  it('does not count a request without credentials, and lets the address in below the free failures', async () => {
    const address = '2001:db8::7';
    for (let i = 0; i < 10; i++) expect((await fail(address)).status).toBe(401);
    for (let i = 0; i < 4; i++) {
      const answer = await fail(address, basic(`v6-${i}`));
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ message: ADMIN_CREDENTIALS_REQUIRED });
    }
    expect((await check(address)).status).toBe(204);
    expect((await fail(address, basic('v6-4'))).status).toBe(401);
    expect((await check(address)).status).toBe(403);
  });

  it('refuses a request without the policy or the address (only the gateway calls these)', async () => {
    expect((await request(server).get('/internal/admin-login/check').set('X-Admin-Login-Address', '198.51.100.3')).status).toBe(400);
    expect((await request(server).get(`/internal/admin-login/check${POLICY}`)).status).toBe(400);
    expect((await request(server).get(`/internal/admin-login/check${POLICY}`).set('X-Admin-Login-Address', 'not-an-address')).status).toBe(
      400,
    );
  });

  it('sweeps whole hours past the day they count for', async () => {
    // The log's own sweep, as if a day and an hour had passed: the earlier tests' failures go, buckets and all.
    await sweepAdminLoginFailures(new Date(Date.now() + DAY_MS + HOUR_MS));
    const now = new Date('2026-11-25T12:30:00Z');
    await recordAdminLoginFailure('a', 'old', new Date('2026-11-24T11:59:00Z'));
    await recordAdminLoginFailure('a', 'kept', new Date('2026-11-24T12:10:00Z'));
    expect(await sweepAdminLoginFailures(now)).toBe(1);
    expect((await AdminLoginFailureModel.find({}).lean()).map((row) => row._id)).toEqual(['a|kept']);
    // The swept hour's bucket went with it; the kept one stays.
    const hours = await LogBucketModel.find({ parent: 'admin-login-failures' }, { start: 1, _id: 0 }).lean();
    expect(hours.map((hour) => new Date(hour.start).toISOString())).toEqual(['2026-11-24T12:00:00.000Z']);
  });
});
