/**
 * Per-test-file isolation on the test stack's real servers, shared by every integration suite: a
 * database and a bucket of its own, polls and anti-forgery tokens as the services make them.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import mongoose from 'mongoose';
import pino from 'pino';
import { CSRF_HEADER } from '@logovote/contracts';
import { PollModel, hashCreatorToken, recordPollActive, recordPollCreating, recordPollDeleting, type PollState } from '@logovote/models';
import {
  CSRF_COOKIE,
  connectMongo,
  createObjectStore,
  disconnectMongo,
  ensureBucket,
  issueCsrfToken,
  type ObjectStore,
  type ObjectStoreSettings,
} from '@logovote/service-kit';
import { testStack } from './stack-env';

export const TEST_CSRF_SECRET = 'csrf-secret-for-integration-tests-0001';
export const TEST_IP_HASH_SALT = 'ip-hash-salt-for-integration-tests-0001';

/** Silent unless TEST_LOG_LEVEL asks for the apps' logs (e.g. error, when a test gets a 500). */
export const silentLogger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A database of its own on the stack's FerretDB (a PostgreSQL schema of its own). */
export function testDatabaseUri(name: string): string {
  const uri = new URL(testStack().mongoUri);
  uri.pathname = `/it_${name}_${randomBytes(4).toString('hex')}`;
  return uri.toString();
}

export async function connectTestDatabase(uri: string, models: { init(): Promise<unknown> }[] = []): Promise<void> {
  await connectMongo(uri, silentLogger);
  // The unique indexes must exist before the first write, as the services ensure at start-up.
  await Promise.all(models.map((model) => model.init()));
}

export async function dropTestDatabase(): Promise<void> {
  await mongoose.connection.dropDatabase();
  await disconnectMongo();
}

export function storeSettings(bucket: string, overrides: Partial<ObjectStoreSettings> = {}): ObjectStoreSettings {
  const { s3 } = testStack();
  return {
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: bucket,
    S3_REGION: s3.region,
    ...overrides,
  };
}

/** A bucket of its own on the stack's MinIO, created. */
export async function isolatedStore(prefix: string): Promise<ObjectStore> {
  const store = createObjectStore(storeSettings(`it-${prefix}-${randomBytes(4).toString('hex')}`));
  await ensureBucket(store, testStack().s3.region);
  return store;
}

export async function objectNames(store: ObjectStore): Promise<string[]> {
  const names: string[] = [];
  for await (const item of store.client.listObjectsV2(store.bucket, '', true)) if (item.name) names.push(item.name);
  return names.sort();
}

export async function removeBucket(store: ObjectStore): Promise<void> {
  await store.client.removeObjects(store.bucket, await objectNames(store));
  await store.client.removeBucket(store.bucket);
}

/**
 * The cookie and header a browser sends after a session lookup gave it a token for this poll: the
 * nonce cookie is what issueCsrfToken would have set, so the token is computed exactly as the
 * sessions service computes it.
 */
export function csrfHeaders(sessionId: string, secret = TEST_CSRF_SECRET): Record<string, string> {
  const nonce = randomBytes(18).toString('base64url');
  const browser = { cookies: { get: () => nonce }, secure: false } as unknown as Context;
  return { Cookie: `${CSRF_COOKIE}=${nonce}`, [CSRF_HEADER]: issueCsrfToken(browser, secret, sessionId) };
}

export const newSessionId = (): string => randomBytes(12).toString('base64url');
export const newFingerprint = (): string => randomBytes(8).toString('hex');

/** A poll stored as the sessions service stores it (active unless told); logos are named `<pollId>-logo<n>`. */
export async function createPoll(options: { logos?: number; feedbackPrompt?: string; lastActivityAt?: Date; state?: PollState } = {}) {
  const _id = newSessionId();
  const logos = Array.from({ length: options.logos ?? 3 }, (_, index) => ({
    id: `${_id}-logo${index}`,
    filename: `${randomBytes(16).toString('base64url').slice(0, 22)}.png`,
    originalName: `logo-${index}.png`,
    contentType: 'image/png',
    size: 1024,
  }));
  const creatorToken = randomBytes(32).toString('base64url');
  const state = options.state ?? 'active';
  // In the sessions service's order: the status first, then the poll, then the status active.
  await recordPollCreating(_id);
  await PollModel.create({ _id, logos, creatorTokenHash: hashCreatorToken(creatorToken), feedbackPrompt: options.feedbackPrompt });
  if (state !== 'creating') await recordPollActive(_id, options.lastActivityAt ?? new Date());
  if (state === 'deleting') await recordPollDeleting(_id);
  return { sessionId: _id, logoIds: logos.map((logo) => logo.id), creatorToken };
}

/**
 * Makes a poll look inactive since `at` and created then: straight in its document and its status's live
 * version, since the product never moves either back.
 */
export async function backdatePoll(pollId: string, at: Date, createdAt: Date = at): Promise<void> {
  await PollModel.collection.updateOne({ _id: pollId } as never, { $set: { createdAt } });
  await PollModel.db.collection('poll_status').updateMany({ key: pollId } as never, { $set: { lastActivityAt: at } });
}
