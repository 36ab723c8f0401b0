import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import { TestVoteRequest, type TestSession, type TestVoteList, type TestVoteRecord } from '@logovote/contracts';
import { HttpError, jsonBody, parseJsonBody } from '@logovote/service-kit';
import { requireFingerprint } from './voter-request';
import { TestSessionModel, TestVoteModel } from '../models/fingerprint-test';

/** How many test votes GET /test/fingerprint/votes lists, newest first. */
export const TEST_VOTES_LISTED = 100;
/** The tool is open to anyone: older test records are dropped so its collections cannot grow without bound. */
const TEST_SESSIONS_KEPT = 100;
const TEST_VOTES_KEPT = 1000;

async function keepNewest({ collection }: Pick<typeof TestVoteModel, 'collection'>, keep: number): Promise<void> {
  const [oldestKept] = await collection
    .find({}, { projection: { createdAt: 1 } })
    .sort({ createdAt: -1 })
    .skip(keep - 1)
    .limit(1)
    .toArray();
  if (oldestKept) await collection.deleteMany({ createdAt: { $lt: oldestKept.createdAt } });
}

async function createTestSession(): Promise<string> {
  const session = await TestSessionModel.create({ _id: randomBytes(12).toString('base64url') });
  await keepNewest(TestSessionModel, TEST_SESSIONS_KEPT);
  return session._id;
}

async function latestTestSessionId(): Promise<string> {
  const latest = await TestSessionModel.findOne({}, { _id: 1 }).sort({ createdAt: -1 }).lean();
  return latest?._id ?? createTestSession();
}

/**
 * testData as JSON text. JSON.parse reads any depth that fits in the body limit, but JSON.stringify recurses
 * and runs out of stack on a few thousand levels: such a body is the client's to fix, not a server failure.
 */
function storedTestData(testData: unknown): string | undefined {
  if (testData === undefined) return undefined;
  try {
    return JSON.stringify(testData);
  } catch {
    throw new HttpError(400, 'testData is nested too deeply');
  }
}

function toRecord(vote: { _id: unknown; sessionId: string; voterFingerprint: string; createdAt: Date }): TestVoteRecord {
  return {
    id: String(vote._id),
    sessionId: vote.sessionId,
    voterFingerprint: vote.voterFingerprint,
    createdAt: vote.createdAt.toISOString(),
  };
}

/** The fingerprint test tool's endpoints (spec section 2, /test/fingerprint). */
export function fingerprintTestRouter(): Router {
  const router = new Router({ prefix: '/test/fingerprint' });

  router.post('/session', async (ctx) => {
    const body: TestSession = { sessionId: await createTestSession() };
    ctx.status = 201;
    ctx.body = body;
  });

  // Recorded against the most recent test session (one is created when there is none), so the
  // tool works whether or not 'Create New Test Session' was pressed first.
  router.post('/vote', jsonBody(), async (ctx) => {
    const voterFingerprint = requireFingerprint(ctx, 'No fingerprint available');
    const { testData } = parseJsonBody(ctx, TestVoteRequest);
    const vote = await TestVoteModel.create({
      sessionId: await latestTestSessionId(),
      voterFingerprint,
      testData: storedTestData(testData),
    });
    await keepNewest(TestVoteModel, TEST_VOTES_KEPT);
    const body: TestVoteRecord = toRecord(vote);
    ctx.status = 201;
    ctx.body = body;
  });

  router.get('/votes', async (ctx) => {
    const votes = await TestVoteModel.find({}, { testData: 0 }).sort({ createdAt: -1, _id: -1 }).limit(TEST_VOTES_LISTED).lean();
    const body: TestVoteList = votes.map(toRecord);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });

  return router;
}
