import mongoose from 'mongoose';
import { PollModel } from '@logovote/models';
import { connectMongo, createObjectStore, disconnectMongo, type ObjectStore } from '@logovote/service-kit';
import { png, svg } from '../../../packages/media-pipeline/test/fixtures';
import { testDatabaseUri, isolatedStore, objectNames, removeBucket, silentLogger, storeSettings } from '../../../tests/support/integration';
import { STORAGE_FAILED } from '../src/polls/create-poll';
import { createSession, realPipeline, sessionsServer } from './support';

// MinIO configured to refuse: real servers, never a mock of the client.
jest.setTimeout(30_000);
const pipeline = realPipeline();
let admin: ObjectStore;

beforeAll(async () => {
  await connectMongo(testDatabaseUri('storage'), silentLogger);
  admin = await isolatedStore('storage');
  await pipeline.moderation.warmUp();
}, 60_000);
afterAll(async () => {
  await removeBucket(admin);
  await mongoose.connection.dropDatabase();
  await disconnectMongo();
});

async function expectNothingStored() {
  expect(await PollModel.countDocuments()).toBe(0);
  expect(await objectNames(admin)).toEqual([]);
}

describe('a storage failure during poll creation leaves nothing behind', () => {
  it('when MinIO refuses the second put after storing the first: no poll, and the first object is removed', async () => {
    // Without credentials the service may only write .png objects (and read and delete any).
    const objects = `arn:aws:s3:::${admin.bucket}/*`;
    await admin.client.setBucketPolicy(
      admin.bucket,
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { AWS: ['*'] }, Action: ['s3:PutObject'], Resource: [`arn:aws:s3:::${admin.bucket}/*.png`] },
          { Effect: 'Allow', Principal: { AWS: ['*'] }, Action: ['s3:GetObject', 's3:DeleteObject'], Resource: [objects] },
        ],
      }),
    );
    const limited = createObjectStore(storeSettings(admin.bucket, { S3_ACCESS_KEY: '', S3_SECRET_KEY: '' }));
    const server = sessionsServer(limited, pipeline);
    try {
      // The policy lets a PNG through: the first put of the next request really happens.
      const allowed = await createSession(server, [['a.png', await png()]]);
      expect(allowed.status).toBe(201);
      await PollModel.deleteMany({});
      await admin.client.removeObjects(admin.bucket, await objectNames(admin));

      const res = await createSession(server, [
        ['a.png', await png()],
        ['b.svg', svg()],
      ]);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: STORAGE_FAILED });
      await expectNothingStored();
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await admin.client.setBucketPolicy(admin.bucket, '');
    }
  });

  it('when MinIO refuses every put (wrong credentials): 503 and no poll', async () => {
    const wrong = createObjectStore(storeSettings(admin.bucket, { S3_SECRET_KEY: 'not-the-secret-key' }));
    const server = sessionsServer(wrong, pipeline);
    try {
      const res = await createSession(server, [['a.png', await png()]], 'prompt');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: STORAGE_FAILED });
      await expectNothingStored();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
