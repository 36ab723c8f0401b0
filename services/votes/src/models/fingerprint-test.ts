import { randomBytes } from 'node:crypto';
import { Schema, model } from 'mongoose';
import type { TestVoteRecord } from '@logovote/contracts';

/**
 * The fingerprint test tool's own collections. They share nothing with polls and votes: a test
 * session id is never a poll id, and test votes are never counted anywhere.
 */
const testSessionSchema = new Schema(
  { _id: { type: String, required: true } },
  { collection: 'fingerprint_test_sessions', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);
testSessionSchema.index({ createdAt: -1 });

const testVoteSchema = new Schema(
  {
    sessionId: { type: String, required: true },
    voterFingerprint: { type: String, required: true },
    /** What the tool sent, kept as JSON text so that any keys (`$x`, `a.b`) store safely. */
    testData: { type: String },
  },
  { collection: 'fingerprint_test_votes', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);
testVoteSchema.index({ createdAt: -1 });

export const TestSessionModel = model('FingerprintTestSession', testSessionSchema);
export const TestVoteModel = model('FingerprintTestVote', testVoteSchema);

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

/** Starts a test session; resolves with its id. */
export async function createTestSession(): Promise<string> {
  const session = await TestSessionModel.create({ _id: randomBytes(12).toString('base64url') });
  await keepNewest(TestSessionModel, TEST_SESSIONS_KEPT);
  return session._id;
}

async function latestTestSessionId(): Promise<string> {
  const latest = await TestSessionModel.findOne({}, { _id: 1 }).sort({ createdAt: -1 }).lean();
  return latest?._id ?? createTestSession();
}

function toRecord(vote: { _id: unknown; sessionId: string; voterFingerprint: string; createdAt: Date }): TestVoteRecord {
  return {
    id: String(vote._id),
    sessionId: vote.sessionId,
    voterFingerprint: vote.voterFingerprint,
    createdAt: vote.createdAt.toISOString(),
  };
}

/**
 * Records a test vote against the most recent test session (one is created when there is none), so the
 * tool works whether or not 'Create New Test Session' was pressed first. 'too deep': `testData` nests
 * deeper than JSON.stringify can recurse (JSON.parse read it within the body limit), stored nothing.
 */
export async function recordTestVote(voterFingerprint: string, testData: unknown): Promise<TestVoteRecord | 'too deep'> {
  let stored: string | undefined;
  try {
    stored = testData === undefined ? undefined : JSON.stringify(testData);
  } catch {
    return 'too deep';
  }
  const vote = await TestVoteModel.create({ sessionId: await latestTestSessionId(), voterFingerprint, testData: stored });
  await keepNewest(TestVoteModel, TEST_VOTES_KEPT);
  return toRecord(vote);
}

/** The newest TEST_VOTES_LISTED test votes, newest first. */
export async function newestTestVotes(): Promise<TestVoteRecord[]> {
  const votes = await TestVoteModel.find({}, { testData: 0 }).sort({ createdAt: -1, _id: -1 }).limit(TEST_VOTES_LISTED).lean();
  return votes.map(toRecord);
}
