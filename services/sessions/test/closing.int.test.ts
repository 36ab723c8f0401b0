import { createHash } from 'node:crypto';
import request from 'supertest';
import {
  CREATOR_TOKEN_HEADER,
  CREATOR_TOKEN_REJECTED,
  CreatedSessionWithCreatorToken,
  SESSION_NOT_FOUND,
  SessionViewWithVotingState,
  VotingStateChange,
} from '@logovote/contracts';
import { PollModel, readPollStatus } from '@logovote/models';
import { CSRF_REJECTED } from '@logovote/service-kit';
import { png, svg } from '../../../packages/media-pipeline/test/fixtures';
import { csrfHeaders, newSessionId } from '../../../tests/support/integration';
import { createSession, sessionsTestbed } from './support';
import { storedModel } from '@logovote/models/test-support';

const PollStatusModel = storedModel('poll_status');

const bed = sessionsTestbed('closing');

async function newPoll(): Promise<CreatedSessionWithCreatorToken> {
  const res = await createSession(bed.server, [
    ['a.png', await png()],
    ['b.svg', svg()],
  ]);
  expect(res.status).toBe(201);
  return CreatedSessionWithCreatorToken.parse(res.body);
}

function change(action: 'close' | 'reopen', sessionId: string, creatorToken?: string, headers = csrfHeaders(sessionId)) {
  const req = request(bed.server).post(`/api/sessions/${sessionId}/${action}`).set(headers);
  return creatorToken === undefined ? req : req.set(CREATOR_TOKEN_HEADER, creatorToken);
}

const view = async (sessionId: string) => (await request(bed.server).get(`/api/sessions/${sessionId}`)).body as Record<string, unknown>;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the creator token', () => {
  it('is answered once at creation; the poll keeps only its SHA-256, and no other answer carries either', async () => {
    const created = await newPoll();
    expect(created.creatorToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const stored = await PollModel.findById(created.sessionId, { creatorTokenHash: 1 }).lean();
    expect(stored?.creatorTokenHash).toBe(sha256(created.creatorToken));
    const raw = JSON.stringify(await PollModel.collection.findOne({ _id: created.sessionId as never }));
    expect(raw).not.toContain(created.creatorToken);

    const answers = [
      await request(bed.server).get(`/api/sessions/${created.sessionId}`),
      await request(bed.server).get('/api/admin/polls'),
      await change('close', created.sessionId, created.creatorToken),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(created.creatorToken);
      expect(answer.text).not.toContain(sha256(created.creatorToken));
    }
  });

  it('differs from poll to poll', async () => {
    const [a, b] = [await newPoll(), await newPoll()];
    expect(a.creatorToken).not.toBe(b.creatorToken);
    expect((await change('close', b.sessionId, a.creatorToken)).status).toBe(403);
  });
});

describe('POST /api/sessions/{id}/close and /reopen', () => {
  it('close and reopen voting, idempotently, and the session view says so', async () => {
    const { sessionId, creatorToken } = await newPoll();
    expect(await view(sessionId)).not.toHaveProperty('closed');

    const closed = await change('close', sessionId, creatorToken);
    expect(closed.status).toBe(200);
    expect(closed.headers['cache-control']).toBe('no-store');
    const state = VotingStateChange.parse(closed.body);
    expect(state).toEqual({ sessionId, closed: true, closedAt: expect.any(String) });
    const closedView = SessionViewWithVotingState.parse(await view(sessionId));
    expect(closedView).toMatchObject({ closed: true, closedAt: state.closedAt, totalVotes: 0 });

    // Again: the same answer, and the time it first closed.
    expect((await change('close', sessionId, creatorToken)).body).toEqual(state);

    const reopened = await change('reopen', sessionId, creatorToken);
    expect(reopened.status).toBe(200);
    expect(reopened.body).toEqual({ sessionId, closed: false });
    expect((await change('reopen', sessionId, creatorToken)).body).toEqual({ sessionId, closed: false });
    const openView = await view(sessionId);
    expect(openView).not.toHaveProperty('closed');
    expect(openView).not.toHaveProperty('closedAt');

    // One state entry at rest, whatever the number of changes.
    expect(await PollStatusModel.countDocuments({ key: sessionId })).toBe(1);
  });

  it('answers 403 without the creator token, with a wrong one, and without the anti-forgery token', async () => {
    const { sessionId, creatorToken } = await newPoll();
    const wrong = `${creatorToken.slice(0, -1)}${creatorToken.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [undefined, '', wrong, 'short', 'x'.repeat(5000)]) {
      const res = await change('close', sessionId, token);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: CREATOR_TOKEN_REJECTED });
    }
    const forged = await change('close', sessionId, creatorToken, {});
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ message: CSRF_REJECTED });
    expect(await readPollStatus(sessionId)).toMatchObject({ closed: false });
    // The one its creation wrote.
    expect(await PollStatusModel.countDocuments({ key: sessionId })).toBe(1);
  });

  it('answers 404 for an unknown poll and for a deleted one, and deleting a poll removes its state', async () => {
    const unknown = newSessionId();
    const missing = await change('close', unknown, 'A'.repeat(43));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: SESSION_NOT_FOUND });

    const { sessionId, creatorToken } = await newPoll();
    expect((await change('close', sessionId, creatorToken)).status).toBe(200);
    expect((await request(bed.server).delete(`/api/admin/polls/${sessionId}`)).status).toBe(200);
    expect(await PollStatusModel.countDocuments({ key: sessionId })).toBe(0);
    for (const action of ['close', 'reopen'] as const) {
      const gone = await change(action, sessionId, creatorToken);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({ message: SESSION_NOT_FOUND });
    }
  });

  it('keeps one state under concurrent changes: every close answers the same closing', async () => {
    const { sessionId, creatorToken } = await newPoll();
    const answers = await Promise.all(Array.from({ length: 8 }, () => change('close', sessionId, creatorToken)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    expect(await readPollStatus(sessionId)).toMatchObject({ closed: true });
    // After its creation's two versions ('creating', then 'active'), one close.
    expect(await PollStatusModel.find({ key: sessionId }, { seq: 1, _id: 0 }).lean()).toEqual([{ seq: 3 }]);

    // Closes and reopens racing: the newest entry wins and at most one older one is left behind.
    await Promise.all(Array.from({ length: 8 }, (_, index) => change(index % 2 ? 'close' : 'reopen', sessionId, creatorToken)));
    const entries = await PollStatusModel.find({ key: sessionId }).lean<{ seq: number; closed: boolean }[]>();
    expect(entries.length).toBeGreaterThanOrEqual(1);
    const newest = entries.reduce((a, b) => (a.seq > b.seq ? a : b));
    expect((await view(sessionId)).closed === true).toBe(newest.closed);
  });
});
