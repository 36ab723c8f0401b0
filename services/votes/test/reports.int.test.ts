import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { POLL_HIDDEN, REPORT_MESSAGES } from '@logovote/contracts';
import { CSRF_REJECTED } from '@logovote/service-kit';
import {
  PollModel,
  PollReportModel,
  VoterSeatModel,
  currentVote,
  hasVoteData,
  purgeVotesOfDeletedPolls,
  readPollStatus,
  recordReview,
  reportsOfRound,
  voteLedger,
  recordPollDeleting,
} from '@logovote/models';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { recordBallot, withdrawVoteIfStoppedMeanwhile } from '../src/use-cases/cast-vote';
import {
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
  connectTestDatabase,
  createPoll,
  csrfHeaders,
  dropTestDatabase,
  newFingerprint,
  newSessionId,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { storedModel } from '@logovote/models/test-support';

const PollStatusModel = storedModel('poll_status');

// Requests against FerretDB on a shared machine: more than jest's 5 s default.
jest.setTimeout(30_000);

const TO_HIDE = 3;
const PER_HOUR = 4;
const config = loadConfig({
  MONGODB_URI: testDatabaseUri('reports'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  IP_HASH_SALT: TEST_IP_HASH_SALT,
  REPORTS_TO_HIDE: String(TO_HIDE),
  REPORTS_PER_ADDRESS_PER_HOUR: String(PER_HOUR),
});
let server: Server;

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel, VoterSeatModel, PollReportModel]);
  server = createServer(buildApp({ logger: silentLogger, config }).callback());
});
afterAll(dropTestDatabase);

let addresses = 0;
/** A network address no other test uses (the rate limit counts per address across polls). */
const newAddress = () => {
  addresses += 1;
  return `10.${Math.floor(addresses / 250) % 250}.${addresses % 250}.7`;
};

function report(sessionId: string, body: unknown, ip: string) {
  return request(server)
    .post(`/api/sessions/${sessionId}/reports`)
    .set(csrfHeaders(sessionId))
    .set('X-Forwarded-For', ip)
    .send(body as object);
}

function vote(sessionId: string, logoId: string, ip = '10.99.0.1') {
  return request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', newFingerprint())
    .set('X-Forwarded-For', ip)
    .send({ logoId });
}

/** Reports from `count` addresses of their own. */
/** The versions of a poll's status left stored (one at rest). */
const statusVersions = async (pollId: string) =>
  (await PollStatusModel.find({ key: pollId }, { seq: 1, _id: 0 }).lean()).map((version) => version.seq);

async function reportFromAddresses(sessionId: string, count: number): Promise<void> {
  for (let index = 0; index < count; index++) await report(sessionId, { category: 'violence' }, newAddress()).expect(200);
}

describe('reporting a poll', () => {
  it('stores a report with its category and note, keyed by a hash of the address (never the address)', async () => {
    const { sessionId } = await createPoll();
    const ip = newAddress();
    const answer = await report(sessionId, { category: 'human-faces', note: '  A photo of a real person  ' }, ip);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ sessionId, reported: true });
    expect(answer.headers['cache-control']).toBe('no-store');

    const stored = await PollReportModel.find({ pollId: sessionId }).lean();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ category: 'human-faces', note: 'A photo of a real person' });
    expect(JSON.stringify(stored)).not.toContain(ip);
    expect(await readPollStatus(sessionId)).toMatchObject({ round: 0, hidden: false });
  });

  it('counts a repeat from the same address once and answers it the same', async () => {
    const { sessionId } = await createPoll();
    const ip = newAddress();
    await report(sessionId, { category: 'copyright' }, ip).expect(200);
    const again = await report(sessionId, { category: 'nudity', note: 'again' }, ip);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ sessionId, reported: true });
    expect(await reportsOfRound(sessionId, 0)).toEqual([expect.objectContaining({ category: 'copyright' })]);
  });

  it('counts concurrent repeats from one address once', async () => {
    const { sessionId } = await createPoll();
    const ip = newAddress();
    const answers = await Promise.all(Array.from({ length: 5 }, () => report(sessionId, { category: 'misleading' }, ip)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await PollReportModel.countDocuments({ pollId: sessionId })).toBe(1);
  });

  it.each([
    ['no category', {}, REPORT_MESSAGES.category],
    ['an unknown category', { category: 'ugly' }, REPORT_MESSAGES.category],
    ['a note that is not text', { category: 'other', note: 12 }, REPORT_MESSAGES.noteNotText],
    ['a note over 140 characters', { category: 'other', note: 'x'.repeat(141) }, REPORT_MESSAGES.noteTooLong],
    ['a note of two lines', { category: 'other', note: 'one\ntwo' }, REPORT_MESSAGES.noteMultiline],
  ])('refuses %s with a 400 and a message', async (_name, body, message) => {
    const { sessionId } = await createPoll();
    const answer = await report(sessionId, body, newAddress());
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
    expect(await PollReportModel.countDocuments({ pollId: sessionId })).toBe(0);
  });

  it('needs the anti-forgery token, and a poll that exists', async () => {
    const { sessionId } = await createPoll();
    const forged = await request(server).post(`/api/sessions/${sessionId}/reports`).send({ category: 'other' });
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ message: CSRF_REJECTED });
    const unknown = newSessionId();
    const missing = await report(unknown, { category: 'other' }, newAddress());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Voting session not found' });
    const deleting = await createPoll({ state: 'deleting' });
    expect((await report(deleting.sessionId, { category: 'other' }, newAddress())).status).toBe(404);
  });

  it('limits an address to its reports per hour across polls: 429 with Retry-After and a message', async () => {
    const ip = newAddress();
    const polls = await Promise.all(Array.from({ length: PER_HOUR + 1 }, () => createPoll()));
    for (const poll of polls.slice(0, PER_HOUR)) await report(poll.sessionId, { category: 'other' }, ip).expect(200);
    const last = polls[PER_HOUR]!.sessionId;
    const refused = await report(last, { category: 'other' }, ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: REPORT_MESSAGES.rateLimited(PER_HOUR) });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await PollReportModel.countDocuments({ pollId: last })).toBe(0);
    // A repeat of a report already made still answers OK; another address is not limited.
    await report(polls[0]!.sessionId, { category: 'other' }, ip).expect(200);
    await report(last, { category: 'other' }, newAddress()).expect(200);
  });

  it('keeps the limit exact when one address reports many polls at once', async () => {
    const ip = newAddress();
    const polls = await Promise.all(Array.from({ length: PER_HOUR + 4 }, () => createPoll()));
    const answers = await Promise.all(polls.map((poll) => report(poll.sessionId, { category: 'other' }, ip)));
    const accepted = answers.filter((answer) => answer.status === 200).length;
    expect(answers.every((answer) => answer.status === 200 || answer.status === 429)).toBe(true);
    expect(accepted).toBeLessThanOrEqual(PER_HOUR);
    const stored = await Promise.all(polls.map((poll) => PollReportModel.countDocuments({ pollId: poll.sessionId })));
    expect(stored.reduce((sum, count) => sum + count, 0)).toBe(accepted);
  });
});

describe('hiding a reported poll', () => {
  it('hides the poll at the threshold of distinct addresses, and refuses votes and reasons with a 409', async () => {
    const { sessionId, logoIds } = await createPoll();
    await vote(sessionId, logoIds[0]!).expect(200);
    await reportFromAddresses(sessionId, TO_HIDE - 1);
    expect((await readPollStatus(sessionId)).hidden).toBe(false);
    await vote(sessionId, logoIds[1]!, '10.99.0.2').expect(200);

    await reportFromAddresses(sessionId, 1);
    expect((await readPollStatus(sessionId)).hidden).toBe(true);
    const refused = await vote(sessionId, logoIds[0]!, '10.99.0.3');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: POLL_HIDDEN });
    expect(await voteLedger.readCounts(sessionId)).toEqual(
      new Map([
        [logoIds[0], 1],
        [logoIds[1], 1],
      ]),
    );
    // Reports keep coming in (counted once per address) without a second hiding: the status is as it was
    // (versions 1 and 2 are its creation's, version 3 marked it reported, version 4 hid it).
    await reportFromAddresses(sessionId, 1);
    expect(await statusVersions(sessionId)).toEqual([4]);
  });

  it('hides once when the threshold is crossed by concurrent reports', async () => {
    const { sessionId } = await createPoll();
    await Promise.all(Array.from({ length: TO_HIDE + 2 }, () => report(sessionId, { category: 'hateful' }, newAddress()).expect(200)));
    expect(await readPollStatus(sessionId)).toMatchObject({ round: 0, hidden: true });
    expect(await statusVersions(sessionId)).toEqual([4]);
  });

  it('takes back a vote written while the poll got hidden (the race) and refuses it', async () => {
    const { sessionId, logoIds } = await createPoll();
    const [a] = logoIds as [string];
    const voterKey = `${sessionId}:racer`;
    const cast = await recordBallot(
      { pollId: sessionId, voterKey, fingerprint: newFingerprint(), logoId: a, ipHash: 'ip' },
      {
        votersPerAddress: 5,
        seatsWithoutProof: 5,
        seatsPerLevel: 25,
      },
    );
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[a, 1]]));
    await reportFromAddresses(sessionId, TO_HIDE);
    await expect(withdrawVoteIfStoppedMeanwhile(await readPollStatus(sessionId), sessionId, voterKey, a, cast.written)).resolves.toBe(
      'poll-hidden',
    );
    expect((await currentVote(voterKey)).logoId).toBeNull();
  });

  it('after a review (restore) takes votes again, and only reports since the review count', async () => {
    const { sessionId, logoIds } = await createPoll();
    const reporters = [newAddress(), newAddress(), newAddress()];
    for (const ip of reporters) await report(sessionId, { category: 'nudity' }, ip).expect(200);
    expect((await readPollStatus(sessionId)).hidden).toBe(true);

    expect(await recordReview(sessionId, 0)).toBe(1);
    expect(await readPollStatus(sessionId)).toMatchObject({ round: 1, hidden: false, reportedAt: null });
    await vote(sessionId, logoIds[0]!).expect(200);

    // The same addresses may report again in the new round; the poll hides at the threshold again.
    await report(sessionId, { category: 'nudity' }, reporters[0]!).expect(200);
    await report(sessionId, { category: 'nudity' }, reporters[1]!).expect(200);
    expect(await readPollStatus(sessionId)).toMatchObject({ round: 1, hidden: false });
    await report(sessionId, { category: 'nudity' }, reporters[2]!).expect(200);
    expect(await readPollStatus(sessionId)).toMatchObject({ round: 1, hidden: true });
    expect((await vote(sessionId, logoIds[1]!, '10.99.0.9')).status).toBe(409);
  });

  it("removes a deleted poll's reports with its votes", async () => {
    const doomed = await createPoll();
    const kept = await createPoll();
    for (const poll of [doomed, kept]) await reportFromAddresses(poll.sessionId, TO_HIDE);
    await recordPollDeleting(doomed.sessionId);
    expect(await hasVoteData(doomed.sessionId)).toBe(true);
    await purgeVotesOfDeletedPolls();
    expect(await hasVoteData(doomed.sessionId)).toBe(false);
    expect(await PollReportModel.countDocuments({ pollId: doomed.sessionId })).toBe(0);
    expect(await PollReportModel.countDocuments({ pollId: kept.sessionId })).toBe(TO_HIDE);
    expect((await readPollStatus(kept.sessionId)).hidden).toBe(true);
  });
});
