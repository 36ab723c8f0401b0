import { createServer, type Server } from 'node:http';
import { createHmac } from 'node:crypto';
import request from 'supertest';
import { DAY_MS, VOTING_CLOSED } from '@logovote/contracts';
import { CSRF_REJECTED, VOTER_PASS_COOKIE, hashIp } from '@logovote/service-kit';
import {
  PollModel,
  VoterSeatModel,
  currentVote,
  deletePollStatus,
  hasVoteData,
  purgeVotesOfDeletedPolls,
  recordVotingState,
  voteLedger,
  livePolls,
  recordPollDeleting,
  readPollStatus,
  voterKeyOf,
  voteChangeSignals,
} from '@logovote/models';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { proofOfWork } from '../src/proof-of-work';
import { recordBallot, voteCaster, withdrawVoteIfStoppedMeanwhile, type CastVoteRequest } from '../src/use-cases/cast-vote';
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

// Requests against FerretDB on a shared machine: more than jest's 5 s default.
jest.setTimeout(30_000);

const CAP = 3;
const config = loadConfig({
  MONGODB_URI: testDatabaseUri('votes'),
  CSRF_SECRET: TEST_CSRF_SECRET,
  IP_HASH_SALT: TEST_IP_HASH_SALT,
  VOTES_PER_IP_PER_POLL: String(CAP),
});
let server: Server;

beforeAll(async () => {
  await connectTestDatabase(config.MONGODB_URI, [PollModel, VoterSeatModel]);
  server = createServer(buildApp({ logger: silentLogger, config }).callback());
});
afterAll(dropTestDatabase);

/** A vote from `ip`, by a browser with the voter pass `voterPass` (none: a browser that has none for this poll). */
function vote(sessionId: string, logoId: string, fingerprint: string, ip = '10.0.0.1', voterPass?: string) {
  const headers = csrfHeaders(sessionId);
  if (voterPass) headers.Cookie = `${headers.Cookie}; ${VOTER_PASS_COOKIE}=${voterPass}`;
  return request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(headers)
    .set('X-Client-Fingerprint', fingerprint)
    .set('X-Forwarded-For', ip)
    .send({ logoId });
}

function myVote(sessionId: string, fingerprint: string, ip = '10.0.0.1', voterPass?: string) {
  const asked = request(server).get(`/api/sessions/${sessionId}/my-vote`);
  if (voterPass) asked.set('Cookie', `${VOTER_PASS_COOKIE}=${voterPass}`);
  return asked.set('X-Client-Fingerprint', fingerprint).set('X-Forwarded-For', ip);
}

/** The voter pass an answer issued, with its attributes. */
const issuedPassCookie = (answer: { headers: Record<string, unknown> }) =>
  [answer.headers['set-cookie'] ?? []].flat().find((cookie) => String(cookie).startsWith(`${VOTER_PASS_COOKIE}=`)) as string | undefined;
/** The voter pass an answer issued. */
const issuedVoterPass = (answer: { headers: Record<string, unknown> }) => issuedPassCookie(answer)?.split(';')[0]!.split('=')[1];

describe('my-vote and vote', () => {
  it('reports no vote, records a vote, then reports it', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    expect((await myVote(sessionId, fingerprint)).body).toEqual({ hasVoted: false, logoId: null });

    const cast = await vote(sessionId, logoIds[1]!, fingerprint);
    expect(cast.status).toBe(200);
    expect(cast.body).toEqual({ logoId: logoIds[1] });

    const status = await myVote(sessionId, fingerprint);
    expect(status.status).toBe(200);
    expect(status.headers['cache-control']).toBe('no-store');
    expect(status.body).toEqual({ hasVoted: true, logoId: logoIds[1] });
    // Another visitor has not voted.
    expect((await myVote(sessionId, newFingerprint())).body).toEqual({ hasVoted: false, logoId: null });
  });

  it('changes the vote when the same fingerprint votes again, never counting it twice', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[logoIds[0], 1]]));

    await vote(sessionId, logoIds[2]!, fingerprint).expect(200);
    expect((await myVote(sessionId, fingerprint)).body).toEqual({ hasVoted: true, logoId: logoIds[2] });
    // The count includes the change as soon as it is acknowledged.
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[logoIds[2], 1]]));
    expect(await VoterSeatModel.countDocuments({ pollId: sessionId })).toBe(1);
  });

  it('keeps polls apart: a vote in one poll is not a vote in another', async () => {
    const first = await createPoll();
    const second = await createPoll();
    const fingerprint = newFingerprint();
    await vote(first.sessionId, first.logoIds[0]!, fingerprint).expect(200);
    expect((await myVote(second.sessionId, fingerprint)).body).toEqual({ hasVoted: false, logoId: null });
    await vote(second.sessionId, second.logoIds[1]!, fingerprint).expect(200);
    expect(await voteLedger.readCounts(first.sessionId)).toEqual(new Map([[first.logoIds[0], 1]]));
    expect(await voteLedger.readCounts(second.sessionId)).toEqual(new Map([[second.logoIds[1], 1]]));
  });

  it("records voting as the poll's activity in the votes' own collections, leaving the poll to its service", async () => {
    const lastWeek = new Date(Date.now() - 7 * DAY_MS);
    const { sessionId, logoIds } = await createPoll({ lastActivityAt: lastWeek });
    await myVote(sessionId, newFingerprint()).expect(200);
    expect(await voteLedger.lastChangeAt(sessionId)).toBeNull();
    const before = Date.now();
    await vote(sessionId, logoIds[0]!, newFingerprint()).expect(200);
    expect((await voteLedger.lastChangeAt(sessionId))?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    await voteLedger.fold(sessionId);
    expect((await voteLedger.lastChangeAt(sessionId))?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await readPollStatus(sessionId)).lastActivityAt).toEqual(lastWeek);
  });

  it('removes the votes of a poll being deleted, and only of that poll', async () => {
    const doomed = await createPoll();
    const kept = await createPoll();
    for (const poll of [doomed, kept]) await vote(poll.sessionId, poll.logoIds[0]!, newFingerprint()).expect(200);
    await voteLedger.fold(doomed.sessionId);
    await recordPollDeleting(doomed.sessionId);

    expect(await purgeVotesOfDeletedPolls()).toBeGreaterThanOrEqual(1);
    expect(await hasVoteData(doomed.sessionId)).toBe(false);
    expect(await hasVoteData(kept.sessionId)).toBe(true);
    expect(await voteLedger.readCounts(kept.sessionId)).toEqual(new Map([[kept.logoIds[0], 1]]));
  });
});

describe('voters', () => {
  it('gives a voter a pass of its poll that finds it from any address, and stores nothing of the browser', async () => {
    const [pollA, pollB] = [await createPoll(), await createPoll()];
    const fingerprint = newFingerprint();
    const first = await vote(pollA.sessionId, pollA.logoIds[0]!, fingerprint, '10.1.0.1').expect(200);
    expect(issuedPassCookie(first)).toMatch(
      new RegExp(`^${VOTER_PASS_COOKIE}=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}; path=/api/sessions/${pollA.sessionId}; expires=`),
    );
    expect(issuedPassCookie(first)).toMatch(/; samesite=lax; httponly$/);
    const passA = issuedVoterPass(first)!;

    // Another poll's pass names nobody there: that poll finds its voter by fingerprint and network, and gives its own pass.
    const inB = await vote(pollB.sessionId, pollB.logoIds[0]!, fingerprint, '10.1.0.1', passA).expect(200);
    expect(issuedVoterPass(inB)).toBeDefined();
    expect(issuedVoterPass(inB)).not.toBe(passA);

    // With its pass, the voter changes its one vote from another network, and a pass it holds is not issued again.
    const moved = await vote(pollA.sessionId, pollA.logoIds[1]!, fingerprint, '10.1.0.2', passA).expect(200);
    expect(issuedPassCookie(moved)).toBeUndefined();
    expect(await voteLedger.readCounts(pollA.sessionId)).toEqual(new Map([[pollA.logoIds[1], 1]]));
    expect((await myVote(pollA.sessionId, newFingerprint(), '10.1.0.3', passA).expect(200)).body).toMatchObject({
      logoId: pollA.logoIds[1],
    });

    // A pass whose voter was changed is no pass: its bearer is a new voter.
    const [, signature] = passA.split('.');
    const forged = `${Buffer.from(`${pollA.sessionId}:${newFingerprint()}:0000000000000000`).toString('base64url')}.${signature}`;
    await vote(pollA.sessionId, pollA.logoIds[2]!, fingerprint, '10.1.0.4', forged).expect(200);
    expect(await voteLedger.readCounts(pollA.sessionId)).toEqual(
      new Map([
        [pollA.logoIds[1], 1],
        [pollA.logoIds[2], 1],
      ]),
    );

    // A browser that lost its pass (a private window) is found on its network, and my-vote gives it the pass again.
    const again = await myVote(pollA.sessionId, fingerprint, '10.1.0.1').expect(200);
    expect(again.body).toMatchObject({ hasVoted: true, logoId: pollA.logoIds[1] });
    expect(issuedVoterPass(again)).toBe(passA);
    // A visitor without a vote gets none.
    expect(issuedPassCookie(await myVote(pollA.sessionId, newFingerprint(), '10.1.0.5').expect(200))).toBeUndefined();

    const seats = JSON.stringify(await VoterSeatModel.find({ pollId: { $in: [pollA.sessionId, pollB.sessionId] } }).lean());
    expect(seats).not.toContain(passA);
  });
});

describe('refusals', () => {
  it.each([
    ['a missing', undefined, 'X-Client-Fingerprint header is required'],
    ['a too short', 'abcdef012345678', 'X-Client-Fingerprint must be 16 lowercase hexadecimal characters'],
    ['an upper-case', 'ABCDEF0123456789', 'X-Client-Fingerprint must be 16 lowercase hexadecimal characters'],
    ['a non-hexadecimal', 'abcdefghijklmnop', 'X-Client-Fingerprint must be 16 lowercase hexadecimal characters'],
  ])('refuses %s fingerprint with 400 on both endpoints', async (_, fingerprint, message) => {
    const { sessionId, logoIds } = await createPoll();
    let status = request(server).get(`/api/sessions/${sessionId}/my-vote`);
    let cast = request(server).post(`/api/sessions/${sessionId}/vote`).set(csrfHeaders(sessionId));
    if (fingerprint) {
      status = status.set('X-Client-Fingerprint', fingerprint);
      cast = cast.set('X-Client-Fingerprint', fingerprint);
    }
    for (const res of [await status, await cast.send({ logoId: logoIds[0] })]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message });
    }
    expect(await VoterSeatModel.countDocuments({ pollId: sessionId })).toBe(0);
  });

  it('refuses a logo of another poll, or no logo, with 400', async () => {
    const { sessionId } = await createPoll();
    const other = await createPoll();
    const foreign = await vote(sessionId, other.logoIds[0]!, newFingerprint());
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ message: 'This logo is not part of this voting session' });
    const missing = await request(server)
      .post(`/api/sessions/${sessionId}/vote`)
      .set(csrfHeaders(sessionId))
      .set('X-Client-Fingerprint', newFingerprint())
      .send({});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: 'logoId: logoId is required' });
    expect(await VoterSeatModel.countDocuments({ pollId: sessionId })).toBe(0);
  });

  it('refuses a body that is not JSON with 415, and malformed JSON with 400', async () => {
    const { sessionId } = await createPoll();
    const base = () =>
      request(server).post(`/api/sessions/${sessionId}/vote`).set(csrfHeaders(sessionId)).set('X-Client-Fingerprint', newFingerprint());
    const form = await base().type('form').send('logoId=x');
    expect(form.status).toBe(415);
    const broken = await base().type('json').send('{"logoId":');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ message: 'Request body must be valid JSON' });
  });

  it('refuses a vote without a valid anti-forgery token with 403', async () => {
    const { sessionId, logoIds } = await createPoll();
    const other = await createPoll();
    const withoutToken = await request(server)
      .post(`/api/sessions/${sessionId}/vote`)
      .set('X-Client-Fingerprint', newFingerprint())
      .send({ logoId: logoIds[0] });
    const otherPollsToken = await request(server)
      .post(`/api/sessions/${sessionId}/vote`)
      .set(csrfHeaders(other.sessionId))
      .set('X-Client-Fingerprint', newFingerprint())
      .send({ logoId: logoIds[0] });
    for (const res of [withoutToken, otherPollsToken]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: CSRF_REJECTED });
    }
    expect(await VoterSeatModel.countDocuments({ pollId: sessionId })).toBe(0);
  });

  it('answers 404 for a poll that does not exist, or is still being created or being deleted', async () => {
    const unknown = newSessionId();
    const creating = await createPoll({ state: 'creating' });
    const deleting = await createPoll({ state: 'deleting' });
    const responses = [
      await vote(unknown, 'logo', newFingerprint()),
      await myVote(unknown, newFingerprint()),
      await myVote('not-a-session-id', newFingerprint()),
      await vote(creating.sessionId, creating.logoIds[0]!, newFingerprint()),
      await vote(deleting.sessionId, deleting.logoIds[0]!, newFingerprint()),
      await myVote(deleting.sessionId, newFingerprint()),
    ];
    for (const res of responses) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Voting session not found' });
    }
    expect(await VoterSeatModel.countDocuments({ pollId: { $in: [unknown, creating.sessionId, deleting.sessionId] } })).toBe(0);
  });
});

describe('network addresses', () => {
  it('stores a salted hash of the address, never the address', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint, '203.0.113.77').expect(200);
    const stored = await VoterSeatModel.findOne({ pollId: sessionId, fingerprint }).lean();
    expect(stored?.ipHash).toBe(createHmac('sha256', TEST_IP_HASH_SALT).update('203.0.113.77').digest('hex'));
    expect(JSON.stringify(stored)).not.toContain('203.0.113');
  });

  it(`lets ${CAP} voters vote from one address, refuses the next with 429, and still lets them change their votes`, async () => {
    const { sessionId, logoIds } = await createPoll();
    const voters = Array.from({ length: CAP }, newFingerprint);
    const passes: (string | undefined)[] = [];
    for (const fingerprint of voters)
      passes.push(issuedVoterPass(await vote(sessionId, logoIds[0]!, fingerprint, '198.51.100.1').expect(200)));

    const refused = await vote(sessionId, logoIds[0]!, newFingerprint(), '198.51.100.1');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(
      `Vote limit reached: at most ${CAP} people can vote in this poll from the same network address. Votes already cast can still be changed.`,
    );

    await vote(sessionId, logoIds[1]!, voters[0]!, '198.51.100.1').expect(200);
    // A voter who moved to another network keeps the one vote and can still change it.
    await vote(sessionId, logoIds[2]!, voters[1]!, '192.0.2.200', passes[1]).expect(200);
    // Other addresses and other polls are not affected.
    await vote(sessionId, logoIds[0]!, newFingerprint(), '198.51.100.2').expect(200);
    const otherPoll = await createPoll();
    await vote(otherPoll.sessionId, otherPoll.logoIds[0]!, newFingerprint(), '198.51.100.1').expect(200);

    expect(await voteLedger.readCounts(sessionId)).toEqual(
      new Map([
        [logoIds[0], 2],
        [logoIds[1], 1],
        [logoIds[2], 1],
      ]),
    );
  });

  it('counts the address the gateway saw, not one the client wrote into X-Forwarded-For', async () => {
    const { sessionId, logoIds } = await createPoll();
    for (let index = 0; index < CAP; index++) await vote(sessionId, logoIds[0]!, newFingerprint(), '198.51.100.9').expect(200);
    const spoofed = await vote(sessionId, logoIds[0]!, newFingerprint(), '192.0.2.1, 198.51.100.9');
    expect(spoofed.status).toBe(429);
  });

  it('counts an IPv6 /64 as one address', async () => {
    const { sessionId, logoIds } = await createPoll();
    for (let index = 0; index < CAP; index++)
      await vote(sessionId, logoIds[0]!, newFingerprint(), `2001:db8:1:2::${index + 1}`).expect(200);
    expect((await vote(sessionId, logoIds[0]!, newFingerprint(), '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).status).toBe(429);
    await vote(sessionId, logoIds[0]!, newFingerprint(), '2001:db8:1:3::1').expect(200);
  });

  it(`admits exactly ${CAP} of many new voters racing from one address`, async () => {
    const { sessionId, logoIds } = await createPoll();
    const results = await Promise.all(Array.from({ length: 30 }, () => vote(sessionId, logoIds[0]!, newFingerprint(), '198.51.100.50')));
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(CAP);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - CAP);
    expect(await VoterSeatModel.countDocuments({ pollId: sessionId })).toBe(CAP);
  });
});

/** Seats enough that no ballot of the closing tests needs a proof of work. */
const seats = { votersPerAddress: 5, seatsWithoutProof: 5, seatsPerLevel: 25 };
/** A ballot of `voterKey` for `logoId` in a poll, as the vote use case records it. */
const ballotIn = (pollId: string) => (voterKey: string, logoId: string) => ({
  pollId,
  voterKey,
  fingerprint: newFingerprint(),
  logoId,
  ipHash: 'ip',
});

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
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[a, 1]]));
    expect((await myVote(sessionId, early)).body).toEqual({ hasVoted: true, logoId: a });
    expect((await myVote(sessionId, late)).body).toEqual({ hasVoted: false, logoId: null });

    await recordVotingState(sessionId, false);
    await vote(sessionId, b, late).expect(200);
    await vote(sessionId, b, early).expect(200);
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[b, 2]]));
  });

  it('a vote written before the close but checked after it is taken back and refused (the race)', async () => {
    const { sessionId, logoIds } = await createPoll();
    const [a, b] = logoIds as [string, string];
    const ballot = ballotIn(sessionId);

    // A first vote and a changed vote, each written while the poll was open...
    const first = `${sessionId}:first`;
    const firstCast = await recordBallot(ballot(first, a), seats);
    expect(firstCast).toEqual({ outcome: 'recorded', written: { rev: 1, from: null, seatChannel: null } });
    const changed = `${sessionId}:changed`;
    await recordBallot(ballot(changed, a), seats);
    const change = await recordBallot(ballot(changed, b), seats);
    expect(change).toEqual({ outcome: 'recorded', written: { rev: 2, from: a } });
    expect(await voteLedger.readCounts(sessionId)).toEqual(
      new Map([
        [a, 1],
        [b, 1],
      ]),
    );

    // ...then the creator closes before their requests look again.
    await recordVotingState(sessionId, true);
    await expect(withdrawVoteIfStoppedMeanwhile(await readPollStatus(sessionId), sessionId, first, a, firstCast.written)).resolves.toBe(
      'voting-closed',
    );
    await expect(withdrawVoteIfStoppedMeanwhile(await readPollStatus(sessionId), sessionId, changed, b, change.written)).resolves.toBe(
      'voting-closed',
    );
    // The first vote is gone, the changed one is back on its earlier logo.
    expect((await currentVote(first)).logoId).toBeNull();
    expect((await currentVote(changed)).logoId).toBe(a);
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[a, 1]]));
  });

  it('a request that wrote nothing, or whose revision a newer one of the voter follows, leaves the votes alone', async () => {
    const { sessionId, logoIds } = await createPoll();
    const [a, b] = logoIds as [string, string];
    const ballot = ballotIn(sessionId);
    const same = `${sessionId}:same`;
    await recordBallot(ballot(same, a), seats);
    const again = await recordBallot(ballot(same, a), seats);
    expect(again).toEqual({ outcome: 'recorded' });
    const overtaken = `${sessionId}:overtaken`;
    const older = await recordBallot(ballot(overtaken, a), seats);
    await recordBallot(ballot(overtaken, b), seats);

    await recordVotingState(sessionId, true);
    await expect(withdrawVoteIfStoppedMeanwhile(await readPollStatus(sessionId), sessionId, same, a, again.written)).resolves.toBe(
      'voting-closed',
    );
    await expect(withdrawVoteIfStoppedMeanwhile(await readPollStatus(sessionId), sessionId, overtaken, a, older.written)).resolves.toBe(
      'voting-closed',
    );
    expect(await voteLedger.readCounts(sessionId)).toEqual(
      new Map([
        [a, 1],
        [b, 1],
      ]),
    );
  });

  it("a vote written after the deletion removed the poll's votes is refused and removes what it wrote (the race)", async () => {
    for (const pollGone of [false, true]) {
      const { sessionId, logoIds } = await createPoll();
      const a = logoIds[0]!;
      const voter = `${sessionId}:late`;
      // The request found the poll active; the deletion then began and removed its votes...
      await recordPollDeleting(sessionId);
      await purgeVotesOfDeletedPolls();
      // ...and, once nothing was left, the poll itself.
      if (pollGone) await deletePollStatus(sessionId);
      const cast = await recordBallot(ballotIn(sessionId)(voter, a), seats);
      expect(cast.outcome).toBe('recorded');
      await expect(withdrawVoteIfStoppedMeanwhile(await readPollStatus(sessionId), sessionId, voter, a, cast.written)).resolves.toBe(
        'poll-not-found',
      );
      expect(await hasVoteData(sessionId)).toBe(false);
    }
  });

  it('an open poll lets the vote stand', async () => {
    const { sessionId, logoIds } = await createPoll();
    const voter = `${sessionId}:open`;
    const cast = await recordBallot(
      { pollId: sessionId, voterKey: voter, fingerprint: newFingerprint(), logoId: logoIds[0]!, ipHash: 'ip' },
      { votersPerAddress: 5, seatsWithoutProof: 5, seatsPerLevel: 25 },
    );
    await expect(
      withdrawVoteIfStoppedMeanwhile(await readPollStatus(sessionId), sessionId, voter, logoIds[0]!, cast.written),
    ).resolves.toBeUndefined();
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[logoIds[0], 1]]));
  });
});

describe('the vote use case, without HTTP', () => {
  // One free seat per address, then one seat per proof-of-work level, two voters at most.
  const policy = { seats: { votersPerAddress: 2, seatsWithoutProof: 1, seatsPerLevel: 1 }, cost: { attempts: 10, attemptsPerLevel: 5 } };
  const caster = voteCaster({
    ipHashSalt: config.IP_HASH_SALT,
    addressPolicies: { standard: policy, sharedNetwork: policy },
    proofOfWork: proofOfWork({ secret: config.IP_HASH_SALT, iterations: config.PROOF_OF_WORK_ITERATIONS }),
    livePolls: livePolls(),
    voteSignals: voteChangeSignals(() => undefined),
  });

  /** A ballot from a new browser (no voter pass) at `ip`. */
  function ballot(sessionId: string, logoId: string, ip = '10.1.0.1') {
    const request: CastVoteRequest = { sessionId, logoId, proof: '', voter: { fingerprint: newFingerprint(), ip, passVoter: undefined } };
    return { request };
  }

  it('refuses a ballot for no poll, an unknown logo or an unknown channel', async () => {
    const { sessionId, logoIds } = await createPoll();
    expect(await caster(ballot(newSessionId(), logoIds[0]!).request)).toEqual({ outcome: 'poll-not-found' });
    expect(await caster(ballot(sessionId, 'not-a-logo').request)).toEqual({ outcome: 'unknown-logo' });
    expect(await caster({ ...ballot(sessionId, logoIds[0]!).request, via: 'nochannel' })).toEqual({ outcome: 'unknown-channel' });
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map());
  });

  it('records a vote, asks the next voter of the address for a proof of work, and refuses a malformed proof', async () => {
    const { sessionId, logoIds } = await createPoll();
    const first = ballot(sessionId, logoIds[0]!);
    const voterKey = voterKeyOf(sessionId, first.request.voter.fingerprint, hashIp(config.IP_HASH_SALT, '10.1.0.1'));
    // A browser without a pass for this poll is given one naming its voter.
    expect(await caster(first.request)).toEqual({ outcome: 'recorded', logoId: logoIds[0], newPass: { pollId: sessionId, voterKey } });
    expect(await caster({ ...first.request, voter: { ...first.request.voter, passVoter: voterKey } })).toEqual({
      outcome: 'recorded',
      logoId: logoIds[0],
    });

    const second = ballot(sessionId, logoIds[1]!);
    const refused = await caster(second.request);
    expect(refused).toMatchObject({ outcome: 'proof-required', level: 1, attempts: 10, proofWasValid: false });
    expect(refused.outcome === 'proof-required' && refused.challenge.parameters.data).toEqual({ pollId: sessionId, level: 1 });
    expect(await caster({ ...second.request, proof: Buffer.from('{}').toString('base64') })).toMatchObject({ outcome: 'invalid-proof' });
    expect(await caster({ ...second.request, proof: '%%%' })).toEqual({ outcome: 'invalid-proof' });
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map([[logoIds[0], 1]]));
  });

  it('answers that a closed poll takes no vote, and writes nothing', async () => {
    const { sessionId, logoIds } = await createPoll();
    await recordVotingState(sessionId, true);
    expect(await caster(ballot(sessionId, logoIds[0]!).request)).toEqual({ outcome: 'voting-closed' });
    expect(await voteLedger.readCounts(sessionId)).toEqual(new Map());
  });
});
