/**
 * The poll's content kept in each process (LivePolls): two apps on one database stand for two
 * replicas of the votes service. A poll closed, hidden or deleted after both read it is seen as such by
 * the next request of either, whichever process changed it.
 */
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { POLL_HIDDEN, SESSION_NOT_FOUND, VOTING_CLOSED } from '@logovote/contracts';
import { PollModel, PollReportModel, VoterSeatModel, deletePollStatus, recordPollDeleting, recordVotingState } from '@logovote/models';
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

jest.setTimeout(30_000);

const config = loadConfig({
  MONGODB_URI: testDatabaseUri('live_poll'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  IP_HASH_SALT: TEST_IP_HASH_SALT,
  REPORTS_TO_HIDE: '1',
});
/** Two replicas of the votes service. */
let replicas: [Server, Server];

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel, VoterSeatModel, PollReportModel]);
  replicas = [0, 1].map(() => createServer(buildApp({ logger: silentLogger, config }).callback())) as [Server, Server];
});
afterAll(dropTestDatabase);

let voters = 0;
/** A vote of a new voter (a fingerprint and an address of its own) through `server`. */
function vote(server: Server, sessionId: string, logoId: string) {
  voters += 1;
  return request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', newFingerprint())
    .set('X-Forwarded-For', `10.66.${voters % 250}.1`)
    .send({ logoId });
}

const myVote = (server: Server, sessionId: string) =>
  request(server).get(`/api/sessions/${sessionId}/my-vote`).set('X-Client-Fingerprint', newFingerprint());

/** A poll both replicas have read (and keep). */
async function pollReadByBoth() {
  const poll = await createPoll();
  for (const server of replicas) await vote(server, poll.sessionId, poll.logoIds[0]!).expect(200);
  return poll;
}

it('refuses the next vote of a poll closed after it was kept, in both replicas, and takes votes again once reopened', async () => {
  const { sessionId, logoIds } = await pollReadByBoth();
  await recordVotingState(sessionId, true);
  for (const server of replicas) {
    const refused = await vote(server, sessionId, logoIds[1]!);
    expect([refused.status, refused.body]).toEqual([409, { message: VOTING_CLOSED }]);
  }
  await recordVotingState(sessionId, false);
  for (const server of replicas) await vote(server, sessionId, logoIds[1]!).expect(200);
});

it('answers a ballot that would need a proof of work, on a poll closed since it was kept, as a closed poll', async () => {
  const { sessionId, logoIds } = await pollReadByBoth();
  const fromOneAddress = () =>
    request(replicas[0])
      .post(`/api/sessions/${sessionId}/vote`)
      .set(csrfHeaders(sessionId))
      .set('X-Client-Fingerprint', newFingerprint())
      .set('X-Forwarded-For', '10.68.0.1')
      .send({ logoId: logoIds[0] });
  // The address's free seats (PROOF_OF_WORK_FROM_VOTER: the sixth voter pays), each vote's second look keeping the open status.
  for (let voter = 1; voter <= 5; voter++) await fromOneAddress().expect(200);
  await expect(fromOneAddress()).resolves.toMatchObject({ status: 428 });
  await recordVotingState(sessionId, true);
  const refused = await fromOneAddress();
  expect([refused.status, refused.body]).toEqual([409, { message: VOTING_CLOSED }]);
});

it("refuses the next vote of a poll hidden by the other replica's report", async () => {
  const { sessionId, logoIds } = await pollReadByBoth();
  await request(replicas[1])
    .post(`/api/sessions/${sessionId}/reports`)
    .set(csrfHeaders(sessionId))
    .set('X-Forwarded-For', '10.67.0.1')
    .send({ category: 'violence' })
    .expect(200);
  for (const server of replicas) {
    const refused = await vote(server, sessionId, logoIds[1]!);
    expect([refused.status, refused.body]).toEqual([409, { message: POLL_HIDDEN }]);
  }
});

it('answers 404 to the next vote and my-vote of a poll whose deletion began, at every step of the deletion', async () => {
  const { sessionId, logoIds } = await pollReadByBoth();
  for (const server of replicas) await myVote(server, sessionId).expect(200);
  const expectGone = async () => {
    for (const server of replicas) {
      for (const answer of [await vote(server, sessionId, logoIds[0]!), await myVote(server, sessionId)])
        expect([answer.status, answer.body]).toEqual([404, { message: SESSION_NOT_FOUND }]);
    }
  };
  // The sessions service's deletion (its delete-poll): the status marked 'deleting', then the poll removed, then its status.
  await recordPollDeleting(sessionId);
  await expectGone();
  await PollModel.deleteOne({ _id: sessionId });
  await expectGone();
  await deletePollStatus(sessionId);
  await expectGone();
});

it('answers 404 for a poll whose status a change tried to write after its deletion removed it (a close racing the deletion)', async () => {
  const { sessionId, logoIds } = await pollReadByBoth();
  await recordPollDeleting(sessionId);
  await PollModel.deleteOne({ _id: sessionId });
  await deletePollStatus(sessionId);
  await recordVotingState(sessionId, false);
  await recordVotingState(sessionId, true);
  await recordVotingState(sessionId, false);
  for (const server of replicas) {
    const gone = await vote(server, sessionId, logoIds[0]!);
    expect([gone.status, gone.body]).toEqual([404, { message: SESSION_NOT_FOUND }]);
  }
});
