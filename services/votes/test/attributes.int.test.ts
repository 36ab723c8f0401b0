/**
 * Brief-fit ratings (docs/attributes.md) in the votes service: a voter's answer to each attribute question,
 * after its vote, a logo of the poll or "Can't say"; a changed answer moves exactly, in the poll's tally and
 * its channel's, also when requests race; refused before a vote, on a closed poll, for an attribute or logo
 * not of the poll; gone with the poll.
 */
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { ATTRIBUTE_MESSAGES, VOTING_CLOSED } from '@logovote/contracts';
import {
  PollModel,
  VoterSeatModel,
  attributeLedger,
  attributeTallies,
  attributeTally,
  hasVoteData,
  purgeVotesOfDeletedPolls,
  recordPollDeleting,
  recordVotingState,
} from '@logovote/models';
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

jest.setTimeout(120_000);

const config = loadConfig({
  MONGODB_URI: testDatabaseUri('attributes'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  IP_HASH_SALT: TEST_IP_HASH_SALT,
  VOTES_PER_IP_PER_POLL: '1000',
  PROOF_OF_WORK_FROM_VOTER: '1000',
});
let server: Server;

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel, VoterSeatModel]);
  server = createServer(buildApp({ logger: silentLogger, config }).callback());
});
afterAll(dropTestDatabase);

const CHANNELS = [{ id: 'news0001', name: 'Newsletter' }];

/** A stored poll asking about two attributes, with a channel. */
async function pollWithAttributes() {
  const poll = await createPoll({ logos: 3 });
  await PollModel.updateOne({ _id: poll.sessionId }, { $set: { attributes: ['Trustworthy', 'Playful'], channels: CHANNELS } });
  return poll;
}

interface Voter {
  fingerprint: string;
  ip: string;
}
let voterNumber = 0;
const newVoter = (): Voter => ({ fingerprint: newFingerprint(), ip: `10.${Math.floor(++voterNumber / 250)}.${voterNumber % 250}.8` });

const vote = (sessionId: string, voter: Voter, logoId: string, via?: string) =>
  request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', voter.fingerprint)
    .set('X-Forwarded-For', voter.ip)
    .send(via ? { logoId, via } : { logoId })
    .expect(200);

const answer = (sessionId: string, voter: Voter, attribute: number | string, body: unknown, headers = csrfHeaders(sessionId)) =>
  request(server)
    .put(`/api/sessions/${sessionId}/attributes/${attribute}`)
    .set(headers)
    .set('X-Client-Fingerprint', voter.fingerprint)
    .set('X-Forwarded-For', voter.ip)
    .send(body as object);

/** Each attribute's answers in a tally, as plain objects. */
async function answersIn(tally: string) {
  return attributeTallies(await attributeLedger.readCounts(tally), 2).map(({ logos, cantSay }) => ({
    logos: Object.fromEntries(logos),
    cantSay,
  }));
}

describe('PUT attributes/{index}', () => {
  it('counts a voter’s answers, "Can’t say" apart, and moves a changed answer exactly, in its channel too', async () => {
    const { sessionId, logoIds } = await pollWithAttributes();
    const [a, b] = logoIds as [string, string];
    const voter = newVoter();
    await vote(sessionId, voter, a, 'news0001');
    await answer(sessionId, voter, 0, { logoId: b }).expect(200, { attribute: 0, logoId: b });
    await answer(sessionId, voter, 1, { logoId: null }).expect(200, { attribute: 1, logoId: null });
    expect(await answersIn(attributeTally(sessionId))).toEqual([
      { logos: { [b]: 1 }, cantSay: 0 },
      { logos: {}, cantSay: 1 },
    ]);
    // Changed, then the same again (nothing more written).
    await answer(sessionId, voter, 0, { logoId: a }).expect(200);
    await answer(sessionId, voter, 0, { logoId: a }).expect(200);
    for (const tally of [attributeTally(sessionId), attributeTally(sessionId, 'news0001')]) {
      expect(await answersIn(tally)).toEqual([
        { logos: { [a]: 1 }, cantSay: 0 },
        { logos: {}, cantSay: 1 },
      ]);
    }
  });

  it('stays exact when one voter’s answers race each other and many voters answer at once', async () => {
    const { sessionId, logoIds } = await pollWithAttributes();
    const voters = Array.from({ length: 12 }, newVoter);
    for (const voter of voters) await vote(sessionId, voter, logoIds[0]!);
    const answers = await Promise.all(
      voters.flatMap((voter, index) => [
        answer(sessionId, voter, 0, { logoId: logoIds[index % 3] }),
        answer(sessionId, voter, 0, { logoId: logoIds[(index + 1) % 3] }),
      ]),
    );
    expect(answers.every((res) => res.status === 200)).toBe(true);
    const [trustworthy] = await answersIn(attributeTally(sessionId));
    // Each voter counts once, for one of the two logos it sent.
    expect(Object.values(trustworthy!.logos).reduce((sum, count) => sum + count, 0)).toBe(voters.length);
    await attributeLedger.foldDue(new Date(Date.now() + 60_000));
    expect((await answersIn(attributeTally(sessionId)))[0]).toEqual(trustworthy);
  });

  it.each([
    ['before a vote', 'no vote', 409, ATTRIBUTE_MESSAGES.noVote],
    ['for an attribute the poll does not ask', 'attribute 2', 404, ATTRIBUTE_MESSAGES.noSuchAttribute],
    ['for an attribute index that is not one', 'attribute x', 400, 'This attribute is not part of this voting session'],
    ['for a logo not of the poll', 'foreign logo', 400, ATTRIBUTE_MESSAGES.noSuchLogo],
    ['for a logo that is not text or null', 'number logo', 400, 'logoId: logoId must be a logo of this voting session or null'],
  ])('refuses an answer %s with a JSON message', async (_, kind, status, message) => {
    const { sessionId, logoIds } = await pollWithAttributes();
    const voter = newVoter();
    if (kind !== 'no vote') await vote(sessionId, voter, logoIds[0]!);
    const attribute = kind === 'attribute 2' ? 2 : kind === 'attribute x' ? 'x' : 0;
    const logoId = kind === 'foreign logo' ? 'someone-elses-logo' : kind === 'number logo' ? 7 : logoIds[0];
    const res = await answer(sessionId, voter, attribute, { logoId });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message: expect.stringContaining(message) });
  });

  it('refuses answers on a closed poll and without the anti-forgery token, and answers 404 for an unknown poll', async () => {
    const { sessionId, logoIds } = await pollWithAttributes();
    const voter = newVoter();
    await vote(sessionId, voter, logoIds[0]!);
    expect((await answer(sessionId, voter, 0, { logoId: logoIds[0] }, {})).status).toBe(403);
    await recordVotingState(sessionId, true);
    const closed = await answer(sessionId, voter, 0, { logoId: logoIds[0] });
    expect(closed.status).toBe(409);
    expect(closed.body).toEqual({ message: VOTING_CLOSED });
    const unknown = await answer('AAAAAAAAAAAAAAAA', voter, 0, { logoId: null });
    expect(unknown.status).toBe(404);
  });
});

const myAnswers = (sessionId: string, voter: Voter) =>
  request(server)
    .get(`/api/sessions/${sessionId}/my-attributes`)
    .set('X-Client-Fingerprint', voter.fingerprint)
    .set('X-Forwarded-For', voter.ip);

describe('GET my-attributes', () => {
  it("answers the visitor's current answers in the poll's order, none before any, and no other voter's", async () => {
    const { sessionId, logoIds } = await pollWithAttributes();
    const [a, b] = logoIds as [string, string];
    const voter = newVoter();
    const other = newVoter();
    await vote(sessionId, voter, a);
    await vote(sessionId, other, b);
    const before = await myAnswers(sessionId, voter).expect(200, { answers: [] });
    expect(before.headers['cache-control']).toBe('no-store');
    await answer(sessionId, voter, 1, { logoId: null }).expect(200);
    await answer(sessionId, voter, 0, { logoId: b }).expect(200);
    await answer(sessionId, voter, 0, { logoId: a }).expect(200);
    await answer(sessionId, other, 0, { logoId: b }).expect(200);
    await myAnswers(sessionId, voter).expect(200, {
      answers: [
        { attribute: 0, logoId: a },
        { attribute: 1, logoId: null },
      ],
    });
    // Read on a closed poll too: the voter sees what it answered.
    await recordVotingState(sessionId, true);
    await myAnswers(sessionId, other).expect(200, { answers: [{ attribute: 0, logoId: b }] });
  });

  it('answers 404 for an unknown poll and 400 without a fingerprint', async () => {
    await myAnswers('AAAAAAAAAAAAAAAA', newVoter()).expect(404);
    const { sessionId } = await pollWithAttributes();
    const res = await request(server).get(`/api/sessions/${sessionId}/my-attributes`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.stringContaining('X-Client-Fingerprint') });
  });
});

describe('deletion', () => {
  it('removes the answers with the poll, its channels’ too', async () => {
    const { sessionId, logoIds } = await pollWithAttributes();
    const voter = newVoter();
    await vote(sessionId, voter, logoIds[0]!, 'news0001');
    await answer(sessionId, voter, 0, { logoId: logoIds[1] }).expect(200);
    await recordPollDeleting(sessionId);
    await purgeVotesOfDeletedPolls();
    expect(await attributeLedger.hasTally(attributeTally(sessionId))).toBe(false);
    expect(await attributeLedger.hasTally(attributeTally(sessionId, 'news0001'))).toBe(false);
    expect(await hasVoteData(sessionId)).toBe(false);
  });
});
