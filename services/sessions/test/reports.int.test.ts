import request from 'supertest';
import { POLL_HIDDEN, REVIEW_ROUND_UNKNOWN, ReportedPollList, ReviewedPoll, type ReportCategory } from '@logovote/contracts';
import { PollReportModel, hasVoteData, hideIfReportedEnough, insertReport, readPollStatus } from '@logovote/models';
import { png } from '../../../packages/media-pipeline/test/fixtures';
import { POLL_NOT_FOUND } from '../src/routes/admin';
import { createdSession, insertVotes, sessionsTestbed } from './support';
import { storedModel } from '@logovote/models/test-support';

const PollStatusModel = storedModel('poll_status');

const bed = sessionsTestbed('reports');

/** What the reports threshold is in these tests (the votes service's REPORTS_TO_HIDE). */
const TO_HIDE = 3;

let addresses = 0;
/** Reports from addresses of their own, stored and counted by the votes service's own data-access code. */
async function reportPoll(pollId: string, reports: { category: ReportCategory; note?: string; at?: Date }[]): Promise<void> {
  const { round } = await readPollStatus(pollId);
  for (const report of reports) {
    addresses += 1;
    await insertReport({ pollId, round, ipHash: `address-${addresses}`, ...report });
    await hideIfReportedEnough(pollId, round, TO_HIDE);
  }
}

const listReported = async () => {
  const answer = await request(bed.server).get('/api/admin/reports');
  expect(answer.status).toBe(200);
  expect(answer.headers['cache-control']).toBe('no-store');
  return ReportedPollList.parse(answer.body);
};

describe('a poll hidden pending review', () => {
  it('says hidden: true in its session view only while hidden; an unreported poll is the spec view', async () => {
    const poll = await createdSession(bed.server, [['a.png', await png()]], 'Hide me?');
    const before = await request(bed.server).get(`/api/sessions/${poll.sessionId}`);
    expect(before.body).not.toHaveProperty('hidden');

    await reportPoll(poll.sessionId, [{ category: 'nudity' }, { category: 'nudity' }]);
    expect((await request(bed.server).get(`/api/sessions/${poll.sessionId}`)).body).not.toHaveProperty('hidden');
    await reportPoll(poll.sessionId, [{ category: 'violence' }]);
    const hidden = await request(bed.server).get(`/api/sessions/${poll.sessionId}`);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ sessionId: poll.sessionId, hidden: true });
  });

  it('shows no link preview (tags or image) of a hidden poll', async () => {
    const poll = await createdSession(bed.server, [['a.png', await png()]], 'A question');
    await request(bed.server).get(`/api/sessions/${poll.sessionId}/link-preview?page=vote`).expect(200);
    await reportPoll(poll.sessionId, [{ category: 'hateful' }, { category: 'hateful' }, { category: 'hateful' }]);
    for (const path of ['link-preview?page=vote', 'link-preview?page=results', 'preview.png']) {
      const answer = await request(bed.server).get(`/api/sessions/${poll.sessionId}/${path}`);
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ message: POLL_HIDDEN });
    }
  });
});

describe('admin: reported polls', () => {
  it('lists polls with reports since their review: counts, reasons, notes, times, hidden or not, logos; hidden first', async () => {
    const visible = await createdSession(bed.server, [['v.png', await png()]], 'Visible but reported');
    const hidden = await createdSession(
      bed.server,
      [
        ['a.png', await png()],
        ['b.png', await png()],
      ],
      'Hidden poll',
    );
    await insertVotes(hidden.sessionId, [hidden.logos[0]!.id]);
    const first = new Date(Date.now() - 60_000);
    await reportPoll(visible.sessionId, [{ category: 'copyright', note: 'That is my logo' }]);
    await reportPoll(hidden.sessionId, [
      { category: 'human-faces', note: 'A real face', at: first },
      { category: 'human-faces' },
      { category: 'misleading', note: 'Pretends to be a bank' },
    ]);

    const polls = await listReported();
    const ours = polls.filter((poll) => [visible.sessionId, hidden.sessionId].includes(poll.pollId));
    expect(ours.map((poll) => poll.pollId)).toEqual([hidden.sessionId, visible.sessionId]);
    expect(ours[0]).toEqual({
      pollId: hidden.sessionId,
      feedbackPrompt: 'Hidden poll',
      round: 0,
      reports: 3,
      reasons: [
        { category: 'human-faces', count: 2 },
        { category: 'misleading', count: 1 },
      ],
      notes: [
        { category: 'misleading', note: 'Pretends to be a bank', at: expect.any(String) },
        { category: 'human-faces', note: 'A real face', at: first.toISOString() },
      ],
      firstReportAt: first.toISOString(),
      lastReportAt: expect.any(String),
      hidden: true,
      logos: [
        { ...hidden.logos[0], voteCount: 1 },
        { ...hidden.logos[1], voteCount: 0 },
      ],
    });
    expect(ours[1]).toMatchObject({ reports: 1, hidden: false, reasons: [{ category: 'copyright', count: 1 }] });
  });

  it('restores a hidden poll: shown again, off the list, earlier reports no longer count; a repeat answers the same', async () => {
    const poll = await createdSession(bed.server, [['a.png', await png()]]);
    await reportPoll(poll.sessionId, [{ category: 'nudity' }, { category: 'nudity' }, { category: 'nudity' }]);
    expect((await request(bed.server).get(`/api/sessions/${poll.sessionId}`)).body.hidden).toBe(true);

    const restored = await request(bed.server).put(`/api/admin/reports/${poll.sessionId}/review`).send({ round: 0 });
    expect(restored.status).toBe(200);
    expect(ReviewedPoll.parse(restored.body)).toEqual({ pollId: poll.sessionId, hidden: false, round: 1 });
    expect((await request(bed.server).get(`/api/sessions/${poll.sessionId}`)).body).not.toHaveProperty('hidden');
    expect((await listReported()).map((item) => item.pollId)).not.toContain(poll.sessionId);
    // A second click (or a second admin) on the same round changes nothing.
    const again = await request(bed.server).put(`/api/admin/reports/${poll.sessionId}/review`).send({ round: 0 });
    expect(again.body).toEqual({ pollId: poll.sessionId, hidden: false, round: 1 });
    expect(await readPollStatus(poll.sessionId)).toMatchObject({ round: 1, hidden: false });

    // New reports count from the review on.
    await reportPoll(poll.sessionId, [{ category: 'other' }]);
    const listed = (await listReported()).find((item) => item.pollId === poll.sessionId);
    expect(listed).toMatchObject({ round: 1, reports: 1, hidden: false });
  });

  it('refuses a review of a round not begun (409), of an unknown poll (404), and a bad body (400)', async () => {
    const poll = await createdSession(bed.server, [['a.png', await png()]]);
    const ahead = await request(bed.server).put(`/api/admin/reports/${poll.sessionId}/review`).send({ round: 5 });
    expect(ahead.status).toBe(409);
    expect(ahead.body).toEqual({ message: REVIEW_ROUND_UNKNOWN });
    const unknown = await request(bed.server).put('/api/admin/reports/NoSuchPoll0000000000/review').send({ round: 0 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: POLL_NOT_FOUND });
    const bad = await request(bed.server).put(`/api/admin/reports/${poll.sessionId}/review`).send({ round: 'first' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(expect.any(String));
    const form = await request(bed.server).put(`/api/admin/reports/${poll.sessionId}/review`).type('form').send('round=0');
    expect(form.status).toBe(415);
  });

  it("deletes a reported poll with the admin's delete, its reports and status with it", async () => {
    const poll = await createdSession(bed.server, [['a.png', await png()]]);
    await reportPoll(poll.sessionId, [{ category: 'violence' }, { category: 'violence' }, { category: 'violence' }]);
    const res = await request(bed.server).delete(`/api/admin/polls/${poll.sessionId}`);
    expect(res.status).toBe(200);
    expect(await PollReportModel.countDocuments({ pollId: poll.sessionId })).toBe(0);
    expect(await PollStatusModel.countDocuments({ key: poll.sessionId })).toBe(0);
    expect(await hasVoteData(poll.sessionId)).toBe(false);
    expect((await listReported()).map((item) => item.pollId)).not.toContain(poll.sessionId);
    expect((await request(bed.server).get(`/api/sessions/${poll.sessionId}`)).status).toBe(404);
  });
});
