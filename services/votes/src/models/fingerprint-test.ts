import { randomBytes } from 'node:crypto';
import { HOUR_MS, MINUTE_MS, type TestVoteRecord } from '@logovote/contracts';
import { timeBucketedLog } from '@logovote/models';

/**
 * The fingerprint test tool's records. They share nothing with polls and votes: a test session id is
 * never a poll id, and test votes are never counted anywhere.
 *
 * Two time-bucketed logs by hour and minute: the newest records are read minute by minute, newest
 * first, so a read costs the minutes it needs, not what is stored, even in a busy hour. The tool is open
 * to anyone, so records are kept TEST_RECORDS_RETENTION_MS and swept whole hours at a time; how many can
 * pile up meanwhile is bounded by the gateway's per-address rate limit on /test/fingerprint/ (an exact
 * count bound would need a counter, which FerretDB does not keep under concurrency).
 */
const SPANS_MS = [HOUR_MS, MINUTE_MS];

const testSessions = timeBucketedLog<Record<string, never>>({
  name: 'fingerprint-test-sessions',
  collection: 'fingerprint_test_sessions',
  model: 'FingerprintTestSession',
  fields: {},
  spansMs: SPANS_MS,
});

interface TestVoteFields {
  sessionId: string;
  voterFingerprint: string;
  /** What the tool sent, kept as JSON text so that any keys (`$x`, `a.b`) store safely. */
  testData?: string | undefined;
}

const testVotes = timeBucketedLog<TestVoteFields>({
  name: 'fingerprint-test-votes',
  collection: 'fingerprint_test_votes',
  model: 'FingerprintTestVote',
  fields: {
    sessionId: { type: String, required: true },
    voterFingerprint: { type: String, required: true },
    testData: { type: String },
  },
  spansMs: SPANS_MS,
});

/** How many test votes GET /test/fingerprint/votes lists, newest first. */
export const TEST_VOTES_LISTED = 100;
/** A day: long enough to compare a browser's test votes across a working day, short enough that the open tool cannot fill the database. */
export const TEST_RECORDS_RETENTION_MS = 24 * HOUR_MS;

interface Logged {
  _id: string;
  at: Date;
}

const newestFirst = (a: Logged, b: Logged) => b.at.getTime() - a.at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/**
 * Up to `limit` records of `log`, newest first (by `at`, then id): one lookup for the hours, then per
 * hour read one for its minutes and one per minute read, until it has them. Minutes do not overlap, so
 * each is sorted on its own. `leaveOut` names fields not read.
 */
async function newestRecords<Stored extends Logged>(
  log: typeof testSessions | typeof testVotes,
  limit: number,
  leaveOut: string[] = [],
): Promise<Stored[]> {
  const found: Stored[] = [];
  for (const hour of await log.buckets()) {
    for (const minute of await log.buckets(hour.key)) {
      const records = (await log.recordsIn<Stored>(minute.key, leaveOut)).sort(newestFirst);
      found.push(...records.slice(0, limit - found.length));
      if (found.length === limit) return found;
    }
  }
  return found;
}

const newId = () => randomBytes(12).toString('base64url');

/** Starts a test session; resolves with its id. */
export async function createTestSession(at = new Date()): Promise<string> {
  const id = newId();
  await testSessions.append(id, {}, at);
  return id;
}

/**
 * Records a test vote against the most recent test session (one is created when there is none), so the
 * tool works whether or not 'Create New Test Session' was pressed first. 'too deep': `testData` nests
 * deeper than JSON.stringify can recurse (JSON.parse read it within the body limit), stored nothing.
 */
export async function recordTestVote(voterFingerprint: string, testData: unknown, at = new Date()): Promise<TestVoteRecord | 'too deep'> {
  let stored: string | undefined;
  try {
    stored = testData === undefined ? undefined : JSON.stringify(testData);
  } catch {
    return 'too deep';
  }
  const [latest] = await newestRecords<Logged>(testSessions, 1);
  const sessionId = latest?._id ?? (await createTestSession(at));
  const id = newId();
  await testVotes.append(id, { sessionId, voterFingerprint, testData: stored }, at);
  return { id, sessionId, voterFingerprint, createdAt: at.toISOString() };
}

/** The newest TEST_VOTES_LISTED test votes, newest first. */
export async function newestTestVotes(): Promise<TestVoteRecord[]> {
  const votes = await newestRecords<TestVoteFields & Logged>(testVotes, TEST_VOTES_LISTED, ['testData']);
  return votes.map((vote) => ({
    id: vote._id,
    sessionId: vote.sessionId,
    voterFingerprint: vote.voterFingerprint,
    createdAt: vote.at.toISOString(),
  }));
}

/** Removes the test sessions and votes of every hour wholly older than TEST_RECORDS_RETENTION_MS; resolves with how many went. */
export async function sweepTestRecords(now = new Date()): Promise<number> {
  const before = now.getTime() - TEST_RECORDS_RETENTION_MS;
  return (await testSessions.sweep(before)) + (await testVotes.sweep(before));
}
