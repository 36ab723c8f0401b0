import Router from '@koa/router';
import { TestVoteRequest, type TestSession, type TestVoteList, type TestVoteRecord } from '@logovote/contracts';
import { HttpError, jsonBody, parseJsonBody } from '@logovote/service-kit';
import { requireFingerprint } from './voter-request';
import { createTestSession, newestTestVotes, recordTestVote } from '../models/fingerprint-test';

/** The fingerprint test tool's endpoints (spec section 2, /test/fingerprint). */
export function fingerprintTestRouter(): Router {
  const router = new Router({ prefix: '/test/fingerprint' });

  router.post('/session', async (ctx) => {
    const body: TestSession = { sessionId: await createTestSession() };
    ctx.status = 201;
    ctx.body = body;
  });

  router.post('/vote', jsonBody(), async (ctx) => {
    const voterFingerprint = requireFingerprint(ctx, 'No fingerprint available');
    const { testData } = parseJsonBody(ctx, TestVoteRequest);
    const vote = await recordTestVote(voterFingerprint, testData);
    if (vote === 'too deep') throw new HttpError(400, 'testData is nested too deeply');
    const body: TestVoteRecord = vote;
    ctx.status = 201;
    ctx.body = body;
  });

  router.get('/votes', async (ctx) => {
    const body: TestVoteList = await newestTestVotes();
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  return router;
}
