/**
 * Live results across replicas: two sessions apps (two replicas, each with its own LiveCountsHub) and the
 * votes app, in-process, each listening on a port of its own, all on the test stack's FerretDB. A vote
 * taken by the votes app reaches the streams of both replicas; the database work per vote does not grow
 * with the number of viewers.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import request from 'supertest';
import { LiveCounts, POLL_HIDDEN, SESSION_NOT_FOUND } from '@logovote/contracts';
import {
  PollModel,
  PollReportModel,
  VoterSeatModel,
  hideIfReportedEnough,
  insertReport,
  recordPollDeleting,
  signalSecond,
} from '@logovote/models';
import { storedModel } from '@logovote/models/test-support';
import { buildApp as buildVotesApp } from '../../votes/src/app';
import { loadConfig as loadVotesConfig } from '../../votes/src/config';
import { openEventStream, type EventStream } from '../../../tests/support/event-stream';
import {
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
  connectTestDatabase,
  createPoll,
  csrfHeaders,
  dropTestDatabase,
  isolatedStore,
  newFingerprint,
  removeBucket,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { buildApp } from '../src/app';
import { LiveCountsHub } from '../src/live/live-counts';
import { PUBLIC_ORIGIN, realPipeline } from './support';
import type { ObjectStore } from '@logovote/service-kit';

jest.setTimeout(60_000);

const databaseUri = testDatabaseUri('live');
const votesConfig = loadVotesConfig({ MONGODB_URI: databaseUri, CSRF_SECRET: TEST_CSRF_SECRET, IP_HASH_SALT: TEST_IP_HASH_SALT });
let store: ObjectStore;
let votes: Server;
const replicas: { hub: LiveCountsHub; server: Server; url: string }[] = [];
/** The signals as stored, to find the second of a vote's signal. */
const storedSignals = storedModel<{ pollId: string; at: Date }>('vote_signals');
const streams: EventStream<LiveCounts>[] = [];

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A sessions replica with its own hub (tickMs: how often its loop runs on its own). */
async function startReplica(tickMs?: number) {
  const hub = new LiveCountsHub({ logger: silentLogger, ...(tickMs ? { tickMs } : {}) });
  const server = buildApp({
    logger: silentLogger,
    store,
    pipeline: realPipeline(),
    csrfSecret: TEST_CSRF_SECRET,
    ipHashSalt: TEST_IP_HASH_SALT,
    publicOrigin: PUBLIC_ORIGIN,
    liveCounts: hub,
  }).listen(0, '127.0.0.1');
  const replica = { hub, server, url: await listening(server) };
  replicas.push(replica);
  return replica;
}

async function watch(replicaUrl: string, sessionId: string): Promise<EventStream<LiveCounts>> {
  const stream = await openEventStream<LiveCounts>(`${replicaUrl}/api/sessions/${sessionId}/live`);
  streams.push(stream);
  return stream;
}

let voters = 0;
/** A vote through the votes app, by a new voter from an address of its own. */
async function vote(sessionId: string, logoId: string) {
  voters += 1;
  const res = await request(votes)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', newFingerprint())
    .set('X-Forwarded-For', `10.1.${Math.floor(voters / 250)}.${voters % 250}`)
    .send({ logoId });
  expect(res.status).toBe(200);
}

const countOf = (counts: LiveCounts, logoId: string) => counts.logos.find((logo) => logo.id === logoId)?.voteCount;

beforeAll(async () => {
  await connectTestDatabase(databaseUri, [PollModel, VoterSeatModel, storedSignals, PollReportModel]);
  store = await isolatedStore('live');
  votes = buildVotesApp({ logger: silentLogger, config: votesConfig }).listen(0, '127.0.0.1');
  await listening(votes);
}, 60_000);

afterEach(async () => {
  for (const stream of streams.splice(0)) stream.close();
  // Until every replica has seen its streams close, its loop keeps running.
  while (replicas.some((replica) => replica.hub.viewerCount > 0)) await new Promise((resolve) => setTimeout(resolve, 20));
});

afterAll(async () => {
  await Promise.all([votes, ...replicas.map((replica) => replica.server)].map((server) => new Promise((resolve) => server.close(resolve))));
  await removeBucket(store);
  await dropTestDatabase();
});

describe('GET /api/sessions/:id/live', () => {
  it("sends the current counts first, then pushes each vote to every viewer of both replicas, whichever replica they're on", async () => {
    const [first, second] = [await startReplica(), await startReplica()];
    const { sessionId, logoIds } = await createPoll();
    await vote(sessionId, logoIds[0]!);

    const onFirst = await watch(first.url, sessionId);
    const onSecond = await watch(second.url, sessionId);
    expect(onFirst.status).toBe(200);
    expect(onFirst.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(onFirst.headers['cache-control']).toBe('no-store');
    for (const stream of [onFirst, onSecond]) {
      const opening = LiveCounts.parse(await stream.waitFor(() => true));
      expect(opening.sessionId).toBe(sessionId);
      expect(opening.totalVotes).toBe(1);
      expect(opening.logos.map((logo) => [logo.id, logo.voteCount])).toEqual([
        [logoIds[0], 1],
        [logoIds[1], 0],
        [logoIds[2], 0],
      ]);
    }

    await vote(sessionId, logoIds[2]!);
    await vote(sessionId, logoIds[2]!);
    for (const stream of [onFirst, onSecond]) {
      const update = await stream.waitFor((counts) => counts.totalVotes === 3);
      expect(LiveCounts.parse(update).logos.map((logo) => logo.voteCount)).toEqual([1, 0, 2]);
      // Only changes are sent, and never a count going back.
      const totals = stream.events.map((counts) => counts.totalVotes);
      expect(totals).toEqual([...totals].sort((a, b) => a - b));
      expect(new Set(totals).size).toBe(totals.length);
    }
    expect(countOf(onSecond.events.at(-1)!, logoIds[2]!)).toBe(2);
  });

  it('answers 404 JSON, and no stream, for a poll that does not exist, a malformed id or a poll being deleted', async () => {
    const { url } = await startReplica();
    const { sessionId } = await createPoll({ state: 'deleting' });
    for (const id of ['AAAAAAAAAAAAAAAA', 'not-a-poll-id', sessionId, '%00', 'x'.repeat(300)]) {
      const stream = await openEventStream(`${url}/api/sessions/${id}/live`);
      expect({ id, status: stream.status, type: stream.headers['content-type'] }).toEqual({
        id,
        status: 404,
        type: 'application/json; charset=utf-8',
      });
      expect(JSON.parse(stream.body)).toEqual({ message: SESSION_NOT_FOUND });
    }
  });

  it('ends the streams of a poll once it is deleted, with the event that says so', async () => {
    const { url } = await startReplica();
    const { sessionId } = await createPoll();
    const stream = await watch(url, sessionId);
    await stream.waitFor(() => true);
    await recordPollDeleting(sessionId);
    await stream.ended;
    // The counts, then the 'ended' event's data.
    expect(stream.events).toHaveLength(2);
    expect(stream.events[1]).toEqual({ sessionId });
  });

  it('ends the streams of a poll hidden pending review at its signal, with the ended event', async () => {
    const { url } = await startReplica();
    const { sessionId } = await createPoll();
    const stream = await watch(url, sessionId);
    await stream.waitFor(() => true);
    for (const ipHash of ['a', 'b', 'c']) await insertReport({ pollId: sessionId, round: 0, ipHash, category: 'misleading' });
    expect(await hideIfReportedEnough(sessionId, 0, 3)).toBe(true);
    await stream.ended;
    expect(stream.events.at(-1)).toEqual({ sessionId });
    const refused = await openEventStream(`${url}/api/sessions/${sessionId}/live`);
    expect([refused.status, JSON.parse(refused.body)]).toEqual([403, { message: POLL_HIDDEN }]);
  });

  it('costs the same database reads per vote with 1 viewer as with 200: one read of the counts per changed poll', async () => {
    // The loop runs once on its own when the first viewer comes, then only when the test ticks it.
    const { hub, url } = await startReplica(3_600_000);
    const { sessionId, logoIds } = await createPoll();
    const queries = new Map<string, number>();
    mongoose.set('debug', (collection: string, method: string) => {
      queries.set(`${collection}.${method}`, (queries.get(`${collection}.${method}`) ?? 0) + 1);
    });
    /** The database operations of one tick of the loop, just after a vote's second has ended (after one during it). */
    const tickAfterVote = async (logoId: string) => {
      const since = Date.now();
      await vote(sessionId, logoId);
      // The votes app signals its batch a moment after the vote.
      let signal: { at: Date } | null = null;
      while (!signal) {
        signal = await storedSignals
          .findOne({ pollId: sessionId, at: { $gte: new Date(since) } }, { at: 1 })
          .sort({ at: -1 })
          .lean();
        if (!signal) await sleep(20);
      }
      const second = signalSecond(signal.at.getTime());
      await hub.tick(second * 1000 + 500);
      queries.clear();
      const secondTick = (second + 1) * 1000 + 500;
      await hub.tick(secondTick);
      const reads = Object.fromEntries([...queries].sort());
      // That tick told the hub the vote's second had ended, so it settled the signal: the real clock must get
      // there too before the next vote, or a vote in the same second (same signal) would go unseen.
      await sleep(Math.max(0, secondTick - Date.now()));
      return reads;
    };
    try {
      const viewers = [await watch(url, sessionId)];
      await viewers[0]!.waitFor(() => true);
      const withOne = await tickAfterVote(logoIds[0]!);
      await viewers[0]!.waitFor((counts) => counts.totalVotes === 1);

      for (let i = 1; i < 200; i++) viewers.push(await watch(url, sessionId));
      await Promise.all(viewers.map((viewer) => viewer.waitFor((counts) => counts.totalVotes === 1)));
      const withTwoHundred = await tickAfterVote(logoIds[1]!);
      await Promise.all(viewers.map((viewer) => viewer.waitFor((counts) => counts.totalVotes === 2)));

      expect(withTwoHundred).toEqual(withOne);
      // The signals of two seconds, and the counts once: its pending ledger entries and its tally steps.
      expect(withOne).toMatchObject({ 'vote_signals.find': 2, 'vote_ledger.find': 1, 'vote_tallies.find': 1 });
      // A tick after the signal's second has ended reads nothing more for it.
      queries.clear();
      await hub.tick(Date.now() + 1500);
      expect(queries.get('vote_ledger.find')).toBeUndefined();
    } finally {
      mongoose.set('debug', false);
    }
  });
});
