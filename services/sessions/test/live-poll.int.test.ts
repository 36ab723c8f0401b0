/**
 * The session view keeps each poll's content in its process (LivePolls): a second app on the same
 * database stands for another replica. A poll closed, hidden or deleted after the first replica read it
 * is seen as such by that replica's next view, whichever process changed it.
 */
import type { Server } from 'node:http';
import request from 'supertest';
import { CREATOR_TOKEN_HEADER, CreatedSessionWithCreatorToken, SESSION_NOT_FOUND } from '@logovote/contracts';
import { hideInRound } from '@logovote/models';
import { png } from '../../../packages/media-pipeline/test/fixtures';
import { csrfHeaders } from '../../../tests/support/integration';
import { createdSession, sessionsServer, sessionsTestbed } from './support';

const bed = sessionsTestbed('livepoll');
let other: Server;

beforeAll(() => {
  other = sessionsServer(bed.store, bed.pipeline);
});
afterAll(async () => {
  await new Promise((resolve) => other.close(resolve));
});

/** A poll created through the other replica and viewed (and kept) by the first. */
async function pollViewed() {
  const poll = CreatedSessionWithCreatorToken.parse(await createdSession(other, [['a.png', await png()]], 'Which one?'));
  const view = await request(bed.server).get(`/api/sessions/${poll.sessionId}`).expect(200);
  expect(view.body).toMatchObject({ feedbackPrompt: 'Which one?' });
  expect(view.body).not.toHaveProperty('closed');
  return poll;
}

it('shows a poll closed through the other replica as closed at the next view, and open again once reopened', async () => {
  const { sessionId, creatorToken } = await pollViewed();
  const change = (action: 'close' | 'reopen') =>
    request(other)
      .post(`/api/sessions/${sessionId}/${action}`)
      .set(csrfHeaders(sessionId))
      .set(CREATOR_TOKEN_HEADER, creatorToken)
      .expect(200);
  await change('close');
  expect((await request(bed.server).get(`/api/sessions/${sessionId}`).expect(200)).body).toMatchObject({ closed: true });
  await change('reopen');
  expect((await request(bed.server).get(`/api/sessions/${sessionId}`).expect(200)).body).not.toHaveProperty('closed');
});

it('shows a poll hidden after it was viewed without its content at the next view', async () => {
  const { sessionId } = await pollViewed();
  expect(await hideInRound(sessionId, 0)).toBe(true);
  const view = await request(bed.server).get(`/api/sessions/${sessionId}`).expect(200);
  expect(view.body).toMatchObject({ sessionId, logos: [], totalVotes: 0, hidden: true });
  expect(view.body).not.toHaveProperty('feedbackPrompt');
});

it('answers 404 at the next view of a poll deleted through the other replica', async () => {
  const { sessionId } = await pollViewed();
  await request(other).delete(`/api/admin/polls/${sessionId}`).expect(200);
  const gone = await request(bed.server).get(`/api/sessions/${sessionId}`);
  expect([gone.status, gone.body]).toEqual([404, { message: SESSION_NOT_FOUND }]);
});
