import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { HOUR_MS, MINUTE_MS, SessionId, TestVoteList, TestVoteRecord } from '@logovote/contracts';
import { PollModel, VoterSeatModel } from '@logovote/models';
import { storedModel } from '@logovote/models/test-support';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import {
  TEST_RECORDS_RETENTION_MS,
  TEST_VOTES_LISTED,
  createTestSession,
  recordTestVote,
  sweepTestRecords,
} from '../src/models/fingerprint-test';
import {
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
  connectTestDatabase,
  dropTestDatabase,
  newFingerprint,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';

// Many requests against FerretDB on a shared machine.
jest.setTimeout(30_000);

const config = loadConfig({ MONGODB_URI: testDatabaseUri('fp_tool'), CSRF_SECRET: TEST_CSRF_SECRET, IP_HASH_SALT: TEST_IP_HASH_SALT });
let server: Server;
/** The test records and the logs' markers as stored, to look under the logs. */
const TestSessionModel = storedModel('fingerprint_test_sessions');
const TestVoteModel = storedModel<{ sessionId: string; testData?: string }>('fingerprint_test_votes');
const LogBucketModel = storedModel('log_buckets');

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [TestSessionModel, TestVoteModel, LogBucketModel, PollModel, VoterSeatModel]);
  server = createServer(buildApp({ logger: silentLogger, config }).callback());
});
afterAll(dropTestDatabase);
// Cleared through the logs' own sweep, dated past every bucket: the logs remember the markers they wrote.
beforeEach(() => sweepTestRecords(new Date(Date.now() + TEST_RECORDS_RETENTION_MS + 2 * HOUR_MS)));

const testVote = (fingerprint: string, testData: unknown = { userAgent: 'jest' }) =>
  request(server).post('/test/fingerprint/vote').set('X-Client-Fingerprint', fingerprint).send({ testData });
const listVotes = () => request(server).get('/test/fingerprint/votes');

it('creates a test session', async () => {
  const res = await request(server).post('/test/fingerprint/session');
  expect(res.status).toBe(201);
  expect(SessionId.safeParse(res.body.sessionId).success).toBe(true);
  expect(await TestSessionModel.countDocuments({ _id: res.body.sessionId })).toBe(1);
});

it('records test votes against the latest test session and lists them newest first', async () => {
  expect((await listVotes()).body).toEqual([]);
  const first = await testVote('0123456789abcdef');
  expect(first.status).toBe(201);
  // With no test session yet, the first vote creates one.
  expect(await TestSessionModel.countDocuments()).toBe(1);
  const session = (await request(server).post('/test/fingerprint/session')).body.sessionId as string;
  const second = await testVote('fedcba9876543210', { nested: { $key: 1, 'dotted.key': [1, 2] } });
  expect(second.status).toBe(201);
  expect(second.body).toEqual(TestVoteRecord.parse(second.body));
  expect(second.body).toMatchObject({ sessionId: session, voterFingerprint: 'fedcba9876543210' });
  expect(first.body.sessionId).not.toBe(session);

  const listed = await listVotes();
  expect(listed.status).toBe(200);
  expect(TestVoteList.parse(listed.body)).toEqual([second.body, first.body]);
  expect(new Date(listed.body[0].createdAt).getTime()).toBeGreaterThanOrEqual(new Date(listed.body[1].createdAt).getTime());
});

it('records a test vote without test data', async () => {
  const empty = await request(server).post('/test/fingerprint/vote').set('X-Client-Fingerprint', '0123456789abcdef').send({});
  const noBody = await request(server).post('/test/fingerprint/vote').set('X-Client-Fingerprint', '0123456789abcdef');
  for (const res of [empty, noBody]) {
    expect(res.status).toBe(201);
    expect(res.body.voterFingerprint).toBe('0123456789abcdef');
  }
});

it(`lists at most the ${TEST_VOTES_LISTED} newest test votes`, async () => {
  // Older votes a second apart, across minutes and an hour: the list reads them minute by minute.
  const older = await createTestSession(new Date(Date.now() - 2 * HOUR_MS));
  const anHourAgo = Date.now() - HOUR_MS - MINUTE_MS;
  const seeded = await Promise.all(
    Array.from({ length: TEST_VOTES_LISTED + 5 }, (_, index) =>
      recordTestVote(newFingerprint(), { index }, new Date(anHourAgo + index * 1000)),
    ),
  );
  expect(seeded.every((vote) => vote !== 'too deep' && vote.sessionId === older)).toBe(true);
  const newest = await testVote(newFingerprint()).expect(201);
  const listed = TestVoteList.parse((await listVotes()).body);
  expect(listed).toHaveLength(TEST_VOTES_LISTED);
  expect(listed[0]).toEqual(newest.body);
  expect(listed.slice(1)).toEqual(seeded.reverse().slice(0, TEST_VOTES_LISTED - 1));
});

it.each([
  ['no fingerprint', undefined, 'No fingerprint available'],
  ['a malformed fingerprint', 'not-a-fingerprint', 'X-Client-Fingerprint must be 16 lowercase hexadecimal characters'],
])('refuses a test vote with %s (400) and records nothing', async (_, fingerprint, message) => {
  let req = request(server).post('/test/fingerprint/vote');
  if (fingerprint) req = req.set('X-Client-Fingerprint', fingerprint);
  const res = await req.send({ testData: {} });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ message });
  expect(await TestVoteModel.countDocuments()).toBe(0);
});

it('refuses test data over the JSON limit (413) and a body that is not JSON (415)', async () => {
  const huge = await testVote(newFingerprint(), 'x'.repeat(20 * 1024));
  expect(huge.status).toBe(413);
  expect(huge.body.message).toMatch(/at most/);
  const text = await request(server)
    .post('/test/fingerprint/vote')
    .set('X-Client-Fingerprint', newFingerprint())
    .type('text')
    .send('hello');
  expect(text.status).toBe(415);
  expect(await TestVoteModel.countDocuments()).toBe(0);
});

it('refuses test data nested too deeply to store (400), not with a server error', async () => {
  const depth = 7000;
  const res = await request(server)
    .post('/test/fingerprint/vote')
    .set('X-Client-Fingerprint', newFingerprint())
    .type('json')
    .send(`{"testData":${'['.repeat(depth)}${']'.repeat(depth)}}`);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ message: 'testData is nested too deeply' });
  expect(await TestVoteModel.countDocuments()).toBe(0);
});

it('keeps test data apart from real polls and votes', async () => {
  await request(server).post('/test/fingerprint/session').expect(201);
  await testVote(newFingerprint()).expect(201);
  expect(await PollModel.countDocuments()).toBe(0);
  expect(await VoterSeatModel.countDocuments()).toBe(0);
  const sessionId = (await TestSessionModel.findOne().lean())?._id ?? '';
  const asPoll = await request(server).get(`/api/sessions/${sessionId}/my-vote`).set('X-Client-Fingerprint', newFingerprint());
  expect(asPoll.status).toBe(404);
});

it('keeps test data as JSON text, whatever its keys', async () => {
  const vote = await testVote(newFingerprint(), { $where: 1, 'a.b': [true] }).expect(201);
  expect((await TestVoteModel.findById(vote.body.id).lean())?.testData).toBe('{"$where":1,"a.b":[true]}');
});

it(`sweeps test sessions and votes of the hours older than ${TEST_RECORDS_RETENTION_MS / HOUR_MS} hours, and keeps the rest`, async () => {
  const now = Date.now();
  const aged = new Date(now - TEST_RECORDS_RETENTION_MS - 2 * HOUR_MS);
  const agedSession = await createTestSession(aged);
  const agedVote = await recordTestVote(newFingerprint(), undefined, aged);
  expect(agedVote).toMatchObject({ sessionId: agedSession });
  const recent = new Date(now - TEST_RECORDS_RETENTION_MS + 2 * HOUR_MS);
  const recentSession = await createTestSession(recent);
  const recentVote = await recordTestVote(newFingerprint(), undefined, recent);
  expect(recentVote).toMatchObject({ sessionId: recentSession });

  expect(await sweepTestRecords(new Date(now))).toBe(2);
  expect(TestVoteList.parse((await listVotes()).body)).toEqual([recentVote]);
  expect(await TestSessionModel.find({}, { _id: 1 }).lean()).toEqual([{ _id: recentSession }]);
  // The next vote goes to the session left.
  expect((await testVote(newFingerprint()).expect(201)).body.sessionId).toBe(recentSession);
});
