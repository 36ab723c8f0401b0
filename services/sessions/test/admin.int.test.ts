import request from 'supertest';
import { AdminPollList, DeletedPoll } from '@logovote/contracts';
import {
  PollModel,
  VoterSeatModel,
  listPoll,
  recordNotifyActivity,
  deletePollStatus,
  recordPaymentPlan,
  recordPollActive,
  recordPollCreating,
} from '@logovote/models';
import { png, svg } from '../../../packages/media-pipeline/test/fixtures';
import { objectNames } from '../../../tests/support/integration';
import { POLL_NOT_FOUND } from '../src/routes/admin';
import { createdSession, insertVotes, sessionsTestbed } from './support';

const bed = sessionsTestbed('admin');

describe('admin API', () => {
  it('lists active polls, newest first, with prompt, date, plan, e-mail and counts from the votes', async () => {
    const older = await createdSession(
      bed.server,
      [
        ['a.png', await png()],
        ['b.svg', svg()],
      ],
      'Older poll',
    );
    const newer = await createdSession(bed.server, [['c.png', await png()]]);
    await recordPaymentPlan(older.sessionId, 'paid');
    // What the notify service records once the links went to the creator.
    await recordNotifyActivity(older.sessionId, 'maker@example.com');
    await insertVotes(older.sessionId, [older.logos[1]!.id, older.logos[1]!.id, older.logos[0]!.id]);
    await recordPollCreating('halfCreatedPoll0');
    await PollModel.create({ _id: 'halfCreatedPoll0', logos: [] });

    const res = await request(bed.server).get('/api/admin/polls');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const polls = AdminPollList.parse(res.body);
    expect(polls.map((poll) => poll.pollId)).toEqual([newer.sessionId, older.sessionId]);
    expect(polls[0]).toMatchObject({ feedbackPrompt: null, creatorEmail: null, paymentPlan: 'free', totalVotes: 0 });
    expect(polls[1]).toEqual({
      pollId: older.sessionId,
      feedbackPrompt: 'Older poll',
      createdAt: expect.any(String),
      totalVotes: 3,
      creatorEmail: 'maker@example.com',
      paymentPlan: 'paid',
      logos: [
        { ...older.logos[0], voteCount: 1 },
        { ...older.logos[1], voteCount: 2 },
      ],
    });
    expect(Date.now() - Date.parse(polls[1]!.createdAt)).toBeLessThan(60_000);
    await PollModel.deleteOne({ _id: 'halfCreatedPoll0' });
    await deletePollStatus('halfCreatedPoll0');
  });

  it('deletes a poll with its votes and its images in MinIO, and says what it removed', async () => {
    const doomed = await createdSession(bed.server, [
      ['a.png', await png()],
      ['b.svg', svg()],
    ]);
    const kept = await createdSession(bed.server, [['k.png', await png()]]);
    await insertVotes(doomed.sessionId, [doomed.logos[0]!.id, doomed.logos[1]!.id]);
    await insertVotes(kept.sessionId, [kept.logos[0]!.id]);
    for (const logo of doomed.logos) expect(await objectNames(bed.store)).toContain(logo.filename);

    const res = await request(bed.server).delete(`/api/admin/polls/${doomed.sessionId}`);
    expect(res.status).toBe(200);
    expect(DeletedPoll.parse(res.body)).toEqual({ pollId: doomed.sessionId, deleted: { logos: 2, votes: 2, objects: 2 } });

    expect(await PollModel.findById(doomed.sessionId).lean()).toBeNull();
    expect(await VoterSeatModel.countDocuments({ pollId: doomed.sessionId })).toBe(0);
    const remaining = await objectNames(bed.store);
    for (const logo of doomed.logos) expect(remaining).not.toContain(logo.filename);
    // Everything of the other poll stays.
    expect(remaining).toContain(kept.logos[0]!.filename);
    expect(await VoterSeatModel.countDocuments({ pollId: kept.sessionId })).toBe(1);
    expect((await request(bed.server).get(`/api/sessions/${doomed.sessionId}`)).status).toBe(404);

    const again = await request(bed.server).delete(`/api/admin/polls/${doomed.sessionId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: POLL_NOT_FOUND });
  });

  it('answers 404 for a malformed poll id', async () => {
    const res = await request(bed.server).delete('/api/admin/polls/..%2F..%2Fx');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: POLL_NOT_FOUND });
  });

  it('gives the list a page at a time, newest first, with the whole count and a cursor to the next page', async () => {
    const before = Number((await request(bed.server).get('/api/admin/polls')).headers['x-total-count']);
    // 45 more polls, listed as creation lists them; one of them deleted again.
    const ids = Array.from({ length: 45 }, (_, index) => `PagedPoll${String(index).padStart(7, '0')}`);
    for (const id of ids) {
      await recordPollCreating(id);
      await PollModel.create({ _id: id, logos: [] });
      await listPoll(id);
      await recordPollActive(id);
    }
    const deleted = ids[30]!;
    expect((await request(bed.server).delete(`/api/admin/polls/${deleted}`)).status).toBe(200);
    const newestFirst = [...ids].reverse().filter((id) => id !== deleted);

    const seen: string[] = [];
    let path: string | undefined = '/api/admin/polls?limit=20';
    for (let pages = 0; path; pages++) {
      const res: request.Response = await request(bed.server).get(path);
      expect(res.status).toBe(200);
      expect(res.headers['x-total-count']).toBe(String(before + 44));
      const page = AdminPollList.parse(res.body);
      expect(page.length).toBeLessThanOrEqual(20);
      seen.push(...page.map((poll) => poll.pollId));
      path = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
      expect(pages).toBeLessThan(10);
    }
    expect(seen.slice(0, 44)).toEqual(newestFirst);
    const firstPage = await request(bed.server).get('/api/admin/polls');
    expect(AdminPollList.parse(firstPage.body)).toHaveLength(20);
    expect(firstPage.headers.link).toMatch(/^<\/api\/admin\/polls\?before=\d+&limit=20>; rel="next"$/);
  });

  it('refuses a malformed page request with a clear 400', async () => {
    for (const query of ['before=0', 'before=abc', 'limit=0', 'limit=101', 'limit=2.5']) {
      const res = await request(bed.server).get(`/api/admin/polls?${query}`);
      expect([res.status, typeof res.body.message]).toEqual([400, 'string']);
    }
  });
});
