import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { VOTING_CLOSED } from '@logovote/contracts';
import {
  PollClosureModel,
  PollModel,
  VoteLedgerModel,
  VoteModel,
  VoteTallyModel,
  currentVote,
  readVoteCounts,
  recordVotingState,
} from '@logovote/models';
import { buildApp } from '../src/app';
import { castVote } from '../src/cast-vote';
import { loadConfig } from '../src/config';
import { withdrawVoteIfClosedMeanwhile } from '../src/voting-closed';
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

// Requests against FerretDB on a shared machine: more than jest's 5 s default.
jest.setTimeout(30_000);

const config = loadConfig({
  MONGODB_URI: testDatabaseUri('votes_closing'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  IP_HASH_SALT: TEST_IP_HASH_SALT,
});
let server: Server;

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel, VoteModel, VoteLedgerModel, VoteTallyModel, PollClosureModel]);
  server = createServer(buildApp({ logger: silentLogger, config }).callback());
});
afterAll(dropTestDatabase);

const vote = (sessionId: string, logoId: string, fingerprint: string) =>
  request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', fingerprint)
    .set('X-Forwarded-For', '10.0.0.7')
    .send({ logoId });
const myVote = (sessionId: string, fingerprint: string) =>
  request(server).get(`/api/sessions/${sessionId}/my-vote`).set('X-Client-Fingerprint', fingerprint).set('X-Forwarded-For', '10.0.0.7');

describe('votes on a closed poll', () => {
  it('are refused with 409 and never counted; my-vote still answers; after reopening votes count again', async () => {
    const { sessionId, logoIds } = await createPoll();
    const [a, b] = logoIds as [string, string];
    const early = newFingerprint();
    await vote(sessionId, a, early).expect(200);

    await recordVotingState(sessionId, true);
    const late = newFingerprint();
    const refused = await vote(sessionId, a, late);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ message: VOTING_CLOSED });
    // A vote cast before the close can be neither changed nor repeated, and stays as it was.
    expect((await vote(sessionId, b, early)).status).toBe(409);
    expect((await vote(sessionId, a, early)).status).toBe(409);
    expect(await readVoteCounts(sessionId)).toEqual(new Map([[a, 1]]));
    expect((await myVote(sessionId, early)).body).toEqual({ hasVoted: true, logoId: a });
    expect((await myVote(sessionId, late)).body).toEqual({ hasVoted: false, logoId: null });

    await recordVotingState(sessionId, false);
    await vote(sessionId, b, late).expect(200);
    await vote(sessionId, b, early).expect(200);
    expect(await readVoteCounts(sessionId)).toEqual(new Map([[b, 2]]));
  });

  it('a vote written before the close but checked after it is taken back and refused (the race)', async () => {
    const { sessionId, logoIds } = await createPoll();
    const [a, b] = logoIds as [string, string];
    const seats = { votersPerAddress: 5, seatsWithoutProof: 5 };
    const ballot = (voteId: string, logoId: string) => ({ pollId: sessionId, voteId, fingerprint: newFingerprint(), logoId, ipHash: 'ip' });

    // A first vote and a changed vote, each written while the poll was open...
    const first = `${sessionId}:first`;
    const firstBefore = await currentVote(first);
    expect(await castVote(ballot(first, a), seats)).toBe('recorded');
    const changed = `${sessionId}:changed`;
    await castVote(ballot(changed, a), seats);
    const changedBefore = await currentVote(changed);
    await castVote(ballot(changed, b), seats);
    expect(await readVoteCounts(sessionId)).toEqual(
      new Map([
        [a, 1],
        [b, 1],
      ]),
    );

    // ...then the creator closes before their requests look again.
    await recordVotingState(sessionId, true);
    await expect(withdrawVoteIfClosedMeanwhile(sessionId, first, a, firstBefore)).rejects.toMatchObject({
      status: 409,
      message: VOTING_CLOSED,
    });
    await expect(withdrawVoteIfClosedMeanwhile(sessionId, changed, b, changedBefore)).rejects.toMatchObject({ status: 409 });
    // The first vote is gone, the changed one is back on its earlier logo.
    expect((await currentVote(first)).logoId).toBeNull();
    expect((await currentVote(changed)).logoId).toBe(a);
    expect(await readVoteCounts(sessionId)).toEqual(new Map([[a, 1]]));
  });

  it('a request that changed nothing leaves the vote from before the close alone', async () => {
    const { sessionId, logoIds } = await createPoll();
    const voter = `${sessionId}:same`;
    const seats = { votersPerAddress: 5, seatsWithoutProof: 5 };
    await castVote({ pollId: sessionId, voteId: voter, fingerprint: newFingerprint(), logoId: logoIds[0]!, ipHash: 'ip' }, seats);
    const before = await currentVote(voter);
    await recordVotingState(sessionId, true);
    await expect(withdrawVoteIfClosedMeanwhile(sessionId, voter, logoIds[0]!, before)).rejects.toMatchObject({ status: 409 });
    expect(await readVoteCounts(sessionId)).toEqual(new Map([[logoIds[0], 1]]));
  });

  it('an open poll lets the vote stand', async () => {
    const { sessionId, logoIds } = await createPoll();
    const voter = `${sessionId}:open`;
    const before = await currentVote(voter);
    await castVote(
      { pollId: sessionId, voteId: voter, fingerprint: newFingerprint(), logoId: logoIds[0]!, ipHash: 'ip' },
      { votersPerAddress: 5, seatsWithoutProof: 5 },
    );
    await expect(withdrawVoteIfClosedMeanwhile(sessionId, voter, logoIds[0]!, before)).resolves.toBeUndefined();
    expect(await readVoteCounts(sessionId)).toEqual(new Map([[logoIds[0], 1]]));
  });
});
