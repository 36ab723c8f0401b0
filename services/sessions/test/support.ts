import type { Server } from 'node:http';
import mongoose from 'mongoose';
import request from 'supertest';
import type { CreatedSession } from '@logovote/contracts';
import { NsfwjsModeration, createUploadPipeline, type SvgSettings, type UploadPipeline } from '@logovote/media-pipeline';
import { purgeVotesOfDeletedPolls } from '@logovote/models';
import { connectMongo, disconnectMongo, runInBackground, type ObjectStore } from '@logovote/service-kit';
import {
  testDatabaseUri,
  isolatedStore,
  removeBucket,
  silentLogger,
  TEST_CSRF_SECRET,
  TEST_IP_HASH_SALT,
} from '../../../tests/support/integration';
import { buildApp } from '../src/app';
import { requestLimits } from '../src/config';
import type { UploadRefusalRecorder } from '../src/polls/upload-refusals';
import { insertFirstVotes } from '@logovote/models/test-support';

export const PUBLIC_ORIGIN = 'https://logovote.test';

/** The real pipeline with the real local classifier; one model per test file. */
export const realPipeline = (): UploadPipeline => createUploadPipeline({ moderation: new NsfwjsModeration({ threshold: 0.7 }) });

/** The configuration's limits, but creations: a test file creates its polls from one address. */
const limits = { ...requestLimits(), creations: { perHour: 10_000, perDay: 10_000 } };

export function sessionsServer(store: ObjectStore, pipeline: UploadPipeline, refusals?: UploadRefusalRecorder, svg?: SvgSettings): Server {
  return buildApp({
    logger: silentLogger,
    store,
    pipeline,
    csrfSecret: TEST_CSRF_SECRET,
    ipHashSalt: TEST_IP_HASH_SALT,
    publicOrigin: PUBLIC_ORIGIN,
    refusals,
    limits,
    svg,
  }).listen(0, '127.0.0.1');
}

/**
 * An own database and bucket on the test stack for one test file, and the sessions app on them.
 * Call in the file's top level; it registers its own beforeAll/afterAll.
 */
export function sessionsTestbed(name: string) {
  // Each upload is decoded and classified for real: generous on a shared 2-core machine.
  jest.setTimeout(30_000);
  const bed = {} as { store: ObjectStore; server: Server; pipeline: UploadPipeline; votesPurge: { stop(): Promise<void> } };
  beforeAll(async () => {
    await connectMongo(testDatabaseUri(name), silentLogger);
    bed.store = await isolatedStore(name);
    bed.pipeline = realPipeline();
    await bed.pipeline.moderation.warmUp();
    bed.server = sessionsServer(bed.store, bed.pipeline);
    // The votes service's own pass over polls being deleted, which a deletion waits for.
    bed.votesPurge = runInBackground('remove the votes of deleted polls', purgeVotesOfDeletedPolls, 100, silentLogger);
  }, 60_000);
  afterAll(async () => {
    await bed.votesPurge.stop();
    await new Promise((resolve) => bed.server.close(resolve));
    await removeBucket(bed.store);
    await mongoose.connection.dropDatabase();
    await disconnectMongo();
  });
  return bed;
}

export type Upload = [name: string, bytes: Buffer];

/** POST /api/sessions as the browser sends it. */
export function createSession(server: Server, logos: Upload[], feedbackPrompt?: string): request.Test {
  let req = request(server).post('/api/sessions');
  if (feedbackPrompt !== undefined) req = req.field('feedbackPrompt', feedbackPrompt);
  for (const [name, bytes] of logos) req = req.attach('logos', bytes, name);
  return req;
}

export async function createdSession(server: Server, logos: Upload[], feedbackPrompt?: string): Promise<CreatedSession> {
  const res = await createSession(server, logos, feedbackPrompt);
  if (res.status !== 201) throw new Error(`creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as CreatedSession;
}

let voters = 0;
/** First votes, one voter each, stored by the votes' own data-access code (a seat each: one address per voter). */
export async function insertVotes(pollId: string, logoIds: string[]): Promise<void> {
  await insertFirstVotes(
    logoIds.map((logoId) => {
      const fingerprint = (voters += 1).toString(16).padStart(16, '0');
      return { pollId, logoId, fingerprint, ipHash: fingerprint, seat: 0 };
    }),
  );
}
