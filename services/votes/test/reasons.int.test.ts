import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { MAX_REASON_LENGTH, REASON_MESSAGES, ReasonsPage, VOTING_CLOSED } from '@logovote/contracts';
import {
  PollModel,
  VoterSeatModel,
  hasVoteData,
  dropReasons,
  insertReason,
  purgeVotesOfDeletedPolls,
  readReasons,
  recordVotingState,
  recordPollDeleting,
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
  newSessionId,
  silentLogger,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { newestReasonSeq, storedModel } from '@logovote/models/test-support';

const VoteReasonModel = storedModel<{ seq: number; version: number; text?: string }>('vote_reasons');

// Requests against FerretDB on a shared machine: more than jest's 5 s default.
jest.setTimeout(60_000);

const config = loadConfig({
  MONGODB_URI: testDatabaseUri('reasons'),
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

const IP = '10.0.0.7';

function vote(sessionId: string, logoId: string, fingerprint: string) {
  return request(server)
    .post(`/api/sessions/${sessionId}/vote`)
    .set(csrfHeaders(sessionId))
    .set('X-Client-Fingerprint', fingerprint)
    .set('X-Forwarded-For', IP)
    .send({ logoId });
}

function myVote(sessionId: string, fingerprint: string) {
  return request(server).get(`/api/sessions/${sessionId}/my-vote`).set('X-Client-Fingerprint', fingerprint).set('X-Forwarded-For', IP);
}

function giveReason(sessionId: string, fingerprint: string, body: unknown, headers: Record<string, string> = csrfHeaders(sessionId)) {
  return request(server)
    .put(`/api/sessions/${sessionId}/reason`)
    .set(headers)
    .set('X-Client-Fingerprint', fingerprint)
    .set('X-Forwarded-For', IP)
    .send(body as object);
}

async function reasonsOf(sessionId: string, logoId: string, cursor?: string): Promise<ReasonsPage> {
  const res = await request(server)
    .get(`/api/sessions/${sessionId}/reasons`)
    .query({ logoId, ...(cursor ? { cursor } : {}) });
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return ReasonsPage.parse(res.body);
}
const texts = (page: ReasonsPage) => page.reasons.map((reason) => reason.reason);

describe('PUT reason', () => {
  it('stores a reason for the current vote and shows it under that logo', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[1]!, fingerprint).expect(200);
    const before = Date.now();
    const res = await giveReason(sessionId, fingerprint, { reason: '  Clean lines, reads well at small sizes  ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ logoId: logoIds[1], reason: 'Clean lines, reads well at small sizes' });

    const page = await reasonsOf(sessionId, logoIds[1]!);
    expect(texts(page)).toEqual(['Clean lines, reads well at small sizes']);
    expect(Date.parse(page.reasons[0]!.at)).toBeGreaterThanOrEqual(before - 1_000);
    expect(page.next).toBeNull();
    expect(texts(await reasonsOf(sessionId, logoIds[0]!))).toEqual([]);
    // Nothing that tells who gave it is shown.
    expect(JSON.stringify(page)).not.toContain(fingerprint);
  });

  it('accepts exactly 140 characters, counting an emoji as one', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    const reason = '👍'.repeat(MAX_REASON_LENGTH);
    await giveReason(sessionId, fingerprint, { reason }).expect(200, { logoId: logoIds[0], reason });
  });

  it.each([
    ['no reason field', {}, REASON_MESSAGES.required],
    ['an empty reason', { reason: '' }, REASON_MESSAGES.required],
    ['only spaces', { reason: '   \t ' }, REASON_MESSAGES.required],
    ['a number', { reason: 42 }, REASON_MESSAGES.notText],
    ['an array', { reason: ['one', 'two'] }, REASON_MESSAGES.notText],
    ['141 characters', { reason: 'a'.repeat(MAX_REASON_LENGTH + 1) }, REASON_MESSAGES.tooLong],
    ['two lines', { reason: 'first line\nsecond line' }, REASON_MESSAGES.multiline],
    ['a carriage return', { reason: 'first\rsecond' }, REASON_MESSAGES.multiline],
    ['a Unicode line separator', { reason: 'first\u2028second' }, REASON_MESSAGES.multiline],
    ['a NUL character', { reason: 'nul\u0000here' }, REASON_MESSAGES.control],
    ['an escape sequence', { reason: '\u001b[31mred' }, REASON_MESSAGES.control],
  ])('refuses %s with a 400 and a message', async (_name, body, message) => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    const res = await giveReason(sessionId, fingerprint, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `reason: ${message}` });
    expect(await VoteReasonModel.countDocuments({ pollId: sessionId })).toBe(0);
  });

  it('refuses malformed JSON, another content type, a missing fingerprint and a missing anti-forgery token', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    const put = () => request(server).put(`/api/sessions/${sessionId}/reason`).set('X-Forwarded-For', IP);
    const responses = [
      await put()
        .set(csrfHeaders(sessionId))
        .set('X-Client-Fingerprint', fingerprint)
        .set('Content-Type', 'application/json')
        .send('{"reason":'),
      await put().set(csrfHeaders(sessionId)).set('X-Client-Fingerprint', fingerprint).set('Content-Type', 'text/plain').send('because'),
      await put().set(csrfHeaders(sessionId)).send({ reason: 'because' }),
      await put().set('X-Client-Fingerprint', fingerprint).send({ reason: 'because' }),
      await put().set(csrfHeaders(newSessionId())).set('X-Client-Fingerprint', fingerprint).send({ reason: 'because' }),
    ];
    expect(responses.map((res) => res.status)).toEqual([400, 415, 400, 403, 403]);
    for (const res of responses) expect(typeof res.body.message).toBe('string');
    expect(await VoteReasonModel.countDocuments({ pollId: sessionId })).toBe(0);
  });

  it('answers 409 before any vote; a second reason for the same vote replaces the first in its place, and my-vote gives it back', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    const other = newFingerprint();
    await giveReason(sessionId, fingerprint, { reason: 'I like it' }).expect(409, { message: REASON_MESSAGES.noVote });
    await vote(sessionId, logoIds[2]!, fingerprint).expect(200);
    await myVote(sessionId, fingerprint).expect(200, { hasVoted: true, logoId: logoIds[2]! });
    await giveReason(sessionId, fingerprint, { reason: 'I like it' }).expect(200);
    await vote(sessionId, logoIds[2]!, other).expect(200);
    await giveReason(sessionId, other, { reason: 'Clean lines' }).expect(200);
    await myVote(sessionId, fingerprint).expect(200, { hasVoted: true, logoId: logoIds[2]!, reason: 'I like it' });
    await giveReason(sessionId, fingerprint, { reason: '  Actually, the colour ' }).expect(200, {
      logoId: logoIds[2]!,
      reason: 'Actually, the colour',
    });
    await myVote(sessionId, fingerprint).expect(200, { hasVoted: true, logoId: logoIds[2]!, reason: 'Actually, the colour' });
    // The edited reason keeps its place: older than the other voter's, given after the first.
    expect(texts(await reasonsOf(sessionId, logoIds[2]!))).toEqual(['Clean lines', 'Actually, the colour']);
    // Two slots, one of them with the edit as its second version.
    expect(await VoteReasonModel.countDocuments({ pollId: sessionId, version: 1 })).toBe(2);
    // Voting for the same logo again is no change: the reason stays.
    await vote(sessionId, logoIds[2]!, fingerprint).expect(200);
    expect(texts(await reasonsOf(sessionId, logoIds[2]!))).toEqual(['Clean lines', 'Actually, the colour']);
    // A changed vote drops it: my-vote no longer gives it.
    await vote(sessionId, logoIds[1]!, fingerprint).expect(200);
    await myVote(sessionId, fingerprint).expect(200, { hasVoted: true, logoId: logoIds[1]! });
  });

  it('answers 404 for a poll that does not exist or is being deleted', async () => {
    const deleting = await createPoll({ state: 'deleting' });
    const creating = await createPoll({ state: 'creating' });
    for (const sessionId of [newSessionId(), deleting.sessionId, creating.sessionId]) {
      await giveReason(sessionId, newFingerprint(), { reason: 'because' }).expect(404, { message: 'Voting session not found' });
      await request(server).get(`/api/sessions/${sessionId}/reasons`).query({ logoId: 'x' }).expect(404);
    }
  });
});

describe('a closed poll', () => {
  it("refuses a reason with the closed poll's 409 while closed, and takes it again once reopened", async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    await recordVotingState(sessionId, true);
    await giveReason(sessionId, fingerprint, { reason: 'Too late' }).expect(409, { message: VOTING_CLOSED });
    expect(texts(await reasonsOf(sessionId, logoIds[0]!))).toEqual([]);
    await recordVotingState(sessionId, false);
    await giveReason(sessionId, fingerprint, { reason: 'Open again' }).expect(200);
  });
});

describe('profanity', () => {
  it.each([
    ['This logo is fucking great', /^This logo is f\*+(ing)? great$/],
    ['the other ones are shit', /^the other ones are s\*+$/],
    ['sh1t colours on the rest', /^s\*+ colours on the rest$/],
    ['what a bitch of a font', /^what a b\*+ of a font$/],
    ['fuuuuck this one', /^f\*+ this one$/],
    ['a$$hole design', /^a\*+hole design$/],
  ])('masks it: %j', async (reason, masked) => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    const res = await giveReason(sessionId, fingerprint, { reason });
    expect(res.status).toBe(200);
    expect(res.body.reason).toMatch(masked);
    expect(texts(await reasonsOf(sessionId, logoIds[0]!))).toEqual([res.body.reason]);
    // Not stored unmasked either.
    expect(JSON.stringify(await VoteReasonModel.find({ pollId: sessionId }).lean())).not.toContain(reason);
  });

  it.each([
    'Feels like Scunthorpe United',
    'Passed my assessment of contrast',
    'Classic and grass-green',
    'Cocktail bar vibes',
    'Shitake-mushroom brown',
  ])('leaves harmless words alone: %j', async (reason) => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    await giveReason(sessionId, fingerprint, { reason }).expect(200, { logoId: logoIds[0], reason });
  });
});

describe('a changed vote', () => {
  it('drops the reason, which explained the previous choice, and takes a new one', async () => {
    const { sessionId, logoIds } = await createPoll();
    const fingerprint = newFingerprint();
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    await giveReason(sessionId, fingerprint, { reason: 'Bold and simple' }).expect(200);
    await vote(sessionId, logoIds[1]!, fingerprint).expect(200);

    expect(texts(await reasonsOf(sessionId, logoIds[0]!))).toEqual([]);
    const stored = await VoteReasonModel.find({ pollId: sessionId }).lean();
    // The slot's first version, retired, and its tombstone: neither keeps the text.
    expect(stored.map((row) => row.version).sort()).toEqual([1, 2]);
    expect(stored.map((row) => row.text)).toEqual([undefined, undefined]);
    expect(JSON.stringify(stored)).not.toContain('Bold and simple');

    await giveReason(sessionId, fingerprint, { reason: 'Changed my mind: warmer' }).expect(200, {
      logoId: logoIds[1],
      reason: 'Changed my mind: warmer',
    });
    // And back to the first logo: a new choice again, so no reason until one is given.
    await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
    expect(texts(await reasonsOf(sessionId, logoIds[1]!))).toEqual([]);
    expect(texts(await reasonsOf(sessionId, logoIds[0]!))).toEqual([]);
    await giveReason(sessionId, fingerprint, { reason: 'First instinct was right' }).expect(200);
    expect(texts(await reasonsOf(sessionId, logoIds[0]!))).toEqual(['First instinct was right']);
  });

  it('never leaves a reason behind a change that races it', async () => {
    const { sessionId, logoIds } = await createPoll();
    for (let round = 0; round < 6; round++) {
      const fingerprint = newFingerprint();
      await vote(sessionId, logoIds[0]!, fingerprint).expect(200);
      const [reason] = await Promise.all([
        giveReason(sessionId, fingerprint, { reason: `race ${round}` }),
        vote(sessionId, logoIds[1]!, fingerprint),
      ]);
      expect([200, 409]).toContain(reason.status);
    }
    // A reason that came after the change explains the new choice; none is left for the old one.
    expect(texts(await reasonsOf(sessionId, logoIds[0]!))).toEqual([]);
    expect(await VoteReasonModel.countDocuments({ pollId: sessionId, logoId: logoIds[0], text: { $exists: true } })).toBe(0);
  });
});

describe('deletion', () => {
  it('removes the reasons with the poll, and only of that poll', async () => {
    const doomed = await createPoll();
    const kept = await createPoll();
    for (const poll of [doomed, kept]) {
      const fingerprint = newFingerprint();
      await vote(poll.sessionId, poll.logoIds[0]!, fingerprint).expect(200);
      await giveReason(poll.sessionId, fingerprint, { reason: 'Nice' }).expect(200);
    }
    await recordPollDeleting(doomed.sessionId);
    // Votes and ledger are gone; the reasons too, or the sessions service would wait for them.
    await purgeVotesOfDeletedPolls();
    expect(await VoteReasonModel.countDocuments({ pollId: doomed.sessionId })).toBe(0);
    expect(await hasVoteData(doomed.sessionId)).toBe(false);
    expect(await VoteReasonModel.countDocuments({ pollId: kept.sessionId })).toBe(1);
  });

  it('keeps a poll counted as having vote data while only its reasons are left', async () => {
    const { sessionId, logoIds } = await createPoll();
    await insertReason({ pollId: sessionId, logoId: logoIds[0]!, voterKey: `${sessionId}:lone`, rev: 1, text: 'left over' });
    expect(await hasVoteData(sessionId)).toBe(true);
  });
});

describe('GET reasons', () => {
  it('pages newest first, skipping dropped reasons, until no older page is left', async () => {
    const { sessionId, logoIds } = await createPoll();
    const logoId = logoIds[0]!;
    for (let n = 0; n < 27; n++)
      await insertReason({ pollId: sessionId, logoId, voterKey: `${sessionId}:v${n}`, rev: 1, text: `reason ${n}` });
    // Dropped by a change of vote: reasons 25 and 3..14.
    for (const n of [25, ...Array.from({ length: 12 }, (_, i) => i + 3)]) {
      await dropReasons(`${sessionId}:v${n}`, 1);
    }
    const shown: string[] = [];
    const pages: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await reasonsOf(sessionId, logoId, cursor);
      shown.push(...texts(page));
      pages.push(page.reasons.length);
      cursor = page.next ?? undefined;
    } while (cursor !== undefined && pages.length < 10);
    const expected = [26, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 2, 1, 0].map((n) => `reason ${n}`);
    expect(shown).toEqual(expected);
    expect(pages[0]).toBe(10);
    expect(pages.reduce((sum, count) => sum + count, 0)).toBe(14);
  });

  it('numbers reasons for one logo without gaps however many arrive at once', async () => {
    const { sessionId, logoIds } = await createPoll();
    const logoId = logoIds[1]!;
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        insertReason({ pollId: sessionId, logoId, voterKey: `${sessionId}:c${n}`, rev: 1, text: `at once ${n}` }),
      ),
    );
    expect(outcomes.every((outcome) => outcome === 'stored')).toBe(true);
    const seqs = (await VoteReasonModel.find({ pollId: sessionId, logoId }, { seq: 1 }).lean()).map((row) => row.seq).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(await newestReasonSeq(sessionId, logoId)).toBe(19);
    expect((await readReasons(sessionId, logoId)).reasons).toHaveLength(10);
  });

  it('refuses a bad logo id or cursor with a 400', async () => {
    const { sessionId, logoIds } = await createPoll();
    const get = (query: Record<string, string>) => request(server).get(`/api/sessions/${sessionId}/reasons`).query(query);
    const responses = [
      await get({}),
      await get({ logoId: 'not-a-logo' }),
      await get({ logoId: logoIds[0]!, cursor: '-1' }),
      await get({ logoId: logoIds[0]!, cursor: 'abc' }),
      await get({ logoId: logoIds[0]!, cursor: '9'.repeat(30) }),
      await get({ logoId: 'x'.repeat(5_000) }),
    ];
    for (const res of responses) {
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    // A made-up cursor past the newest reason reads from the newest.
    await insertReason({ pollId: sessionId, logoId: logoIds[0]!, voterKey: `${sessionId}:x`, rev: 1, text: 'only one' });
    expect(texts(await reasonsOf(sessionId, logoIds[0]!, '999999'))).toEqual(['only one']);
  });
});
