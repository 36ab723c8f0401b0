import { Agent, createServer, type Server } from 'node:http';
import request from 'supertest';
import { PollModel, VoterSeatModel, currentVote, voteLedger } from '@logovote/models';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import {
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
  connectTestDatabase,
  createPoll,
  csrfHeaders,
  dropTestDatabase,
  newFingerprint,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { insertFirstVotes, storedModel } from '@logovote/models/test-support';

// Hundreds of requests against FerretDB on a shared 2-core machine: give them time.
jest.setTimeout(180_000);

// The production default cap (50 voters per address per poll).
// Many voters race for the seats of each address here: the step-up proof of work (tested in
// votes.int.test.ts and through the gateway) is off, so these races are about the counts alone.
const config = loadConfig({
  MONGODB_URI: testDatabaseUri('votes_race'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  IP_HASH_SALT: TEST_IP_HASH_SALT,
  PROOF_OF_WORK_FROM_VOTER: '1000',
});
let server: Server;
// Reused keep-alive connections: the requests race inside the service, not in TCP handshakes.
const agent = new Agent({ keepAlive: true, maxSockets: 250 });

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel, VoterSeatModel]);
  server = createServer(buildApp({ logger: silentLogger, config }).callback());
  // Longer than the test: the server never closes a connection the agent is about to reuse.
  server.keepAliveTimeout = 300_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  agent.destroy();
  await new Promise((resolve) => server.close(resolve));
  await dropTestDatabase();
});

function vote(sessionId: string, logoId: string, fingerprint: string, ip: string) {
  return request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .agent(agent)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', fingerprint)
    .set('X-Forwarded-For', ip)
    .send({ logoId });
}

/** What the session lookup shows: per-logo counts and their sum, from the same counting function. */
async function tally(sessionId: string) {
  const byLogo = await voteLedger.readCounts(sessionId);
  const totalVotes = [...byLogo.values()].reduce((sum, count) => sum + count, 0);
  return { byLogo, totalVotes };
}

it('records exactly one vote for 200 parallel votes with one fingerprint', async () => {
  const { sessionId, logoIds } = await createPoll({ logos: 4 });
  const fingerprint = newFingerprint();
  const sent = Array.from({ length: 200 }, (_, index) => logoIds[index % logoIds.length]!);

  const results = await Promise.all(sent.map((logoId) => vote(sessionId, logoId, fingerprint, '10.20.0.1')));

  expect(results.map((res) => res.status)).toEqual(sent.map(() => 200));
  const stored = await VoterSeatModel.find({ pollId: sessionId }).lean();
  expect(stored).toHaveLength(1);
  expect(stored[0]?.fingerprint).toBe(fingerprint);
  const { logoId } = await currentVote(stored[0]!._id);
  expect(logoIds).toContain(logoId);
  const { byLogo, totalVotes } = await tally(sessionId);
  expect(totalVotes).toBe(1);
  expect(byLogo.get(logoId!)).toBe(1);
});

it('keeps exact counts under 1600 parallel votes and changes from 1000 distinct voters', async () => {
  const { sessionId, logoIds } = await createPoll({ logos: 4 });
  // 40 addresses with 25 voters each: below the cap, but many voters race for the seats of each address.
  const voters = Array.from({ length: 1000 }, (_, index) => ({ fingerprint: newFingerprint(), ip: `10.30.${index % 40}.1` }));
  const early = voters.slice(0, 600);
  const late = voters.slice(600);
  const firstChoice = (index: number) => logoIds[index % 4]!;
  const secondChoice = (index: number) => logoIds[(index + 1) % 4]!;

  // 600 voters vote; then, all at once, they change their votes while 400 others vote for the first time.
  const firstRound = await Promise.all(early.map((voter, index) => vote(sessionId, firstChoice(index), voter.fingerprint, voter.ip)));
  expect(firstRound.every((res) => res.status === 200)).toBe(true);
  const secondRound = await Promise.all([
    ...early.map((voter, index) => vote(sessionId, secondChoice(index), voter.fingerprint, voter.ip)),
    ...late.map((voter, index) => vote(sessionId, firstChoice(index), voter.fingerprint, voter.ip)),
  ]);
  expect(secondRound.filter((res) => res.status !== 200).map((res) => [res.status, res.body])).toEqual([]);

  const expected = new Map<string, number>();
  const add = (logoId: string) => expected.set(logoId, (expected.get(logoId) ?? 0) + 1);
  early.forEach((_, index) => add(secondChoice(index)));
  late.forEach((_, index) => add(firstChoice(index)));

  const { byLogo, totalVotes } = await tally(sessionId);
  const distinctVoters = (await VoterSeatModel.distinct('fingerprint', { pollId: sessionId })).length;
  expect(totalVotes).toBe(1000);
  expect(distinctVoters).toBe(1000);
  expect(await VoterSeatModel.countDocuments({ pollId: sessionId })).toBe(1000);
  expect(byLogo).toEqual(expected);
  // Folding the ledger into the poll's tally changes nothing a reader sees.
  await voteLedger.fold(sessionId);
  expect((await tally(sessionId)).byLogo).toEqual(expected);
});

it('counts bulk-loaded votes exactly while live votes and folds of the same poll race them', async () => {
  const { sessionId, logoIds } = await createPoll({ logos: 4 });
  const bulk = (batch: number) =>
    Array.from({ length: 200 }, (_, index) => {
      const fingerprint = newFingerprint();
      return { pollId: sessionId, fingerprint, logoId: logoIds[(batch + index) % 4]!, ipHash: fingerprint, seat: 0 };
    });
  const batches = [bulk(0), bulk(1), bulk(2)];
  const live = Array.from({ length: 100 }, (_, index) => ({ fingerprint: newFingerprint(), ip: `10.40.${index % 10}.1` }));

  const results = await Promise.all([
    ...batches.map((votes) => insertFirstVotes(votes, { folded: true })),
    ...live.map((voter, index) => vote(sessionId, logoIds[index % 4]!, voter.fingerprint, voter.ip)),
    ...Array.from({ length: 5 }, () => voteLedger.fold(sessionId)),
  ]);

  expect(results.filter((res) => typeof res === 'object' && res !== null && 'status' in res && res.status !== 200)).toEqual([]);
  const expected = new Map<string, number>();
  for (const { logoId } of batches.flat()) expected.set(logoId, (expected.get(logoId) ?? 0) + 1);
  live.forEach((_, index) => expected.set(logoIds[index % 4]!, (expected.get(logoIds[index % 4]!) ?? 0) + 1));
  expect(await voteLedger.readCounts(sessionId)).toEqual(expected);
  await voteLedger.fold(sessionId);
  expect(await voteLedger.readCounts(sessionId)).toEqual(expected);
  // Bulk-loaded votes are never pending: the folder has nothing of theirs to take.
  expect(await storedModel('vote_ledger').countDocuments({ tally: sessionId, pending: true })).toBe(0);
});
