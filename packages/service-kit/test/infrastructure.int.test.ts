import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import pino from 'pino';
import { testDatabaseUri } from '../../../tests/support/integration';
import { testStack } from '../../../tests/support/stack-env';
import { connectMongo, createObjectStore, disconnectMongo, ensureBucket, mongoReadiness, objectStoreReadiness } from '../src';

// The real servers the harness started: FerretDB (MongoDB wire protocol) and MinIO (S3).
const stack = testStack();
const databaseUri = testDatabaseUri('kit');

describe('MongoDB through mongoose (FerretDB)', () => {
  beforeAll(() => connectMongo(databaseUri, pino({ level: 'silent' })));
  afterAll(async () => {
    await mongoose.connection.dropDatabase();
    await disconnectMongo();
  });

  it('writes and reads a document, and enforces a unique index', async () => {
    const Probe = mongoose.model('Probe', new mongoose.Schema({ key: { type: String, unique: true }, count: Number }));
    await Probe.init();
    await Probe.create({ key: 'a', count: 1 });
    await Probe.updateOne({ key: 'a' }, { $inc: { count: 2 } });
    const found = await Probe.findOne({ key: 'a' }).lean();
    expect(found?.count).toBe(3);
    await expect(Probe.create({ key: 'a', count: 9 })).rejects.toMatchObject({ code: 11000 });
    await expect(mongoReadiness.check()).resolves.toBeUndefined();
  });
});

describe('object storage through the minio client (MinIO)', () => {
  const store = createObjectStore({
    S3_ENDPOINT: stack.s3.endpoint,
    S3_ACCESS_KEY: stack.s3.accessKey,
    S3_SECRET_KEY: stack.s3.secretKey,
    S3_BUCKET: `it-kit-${randomBytes(4).toString('hex')}`,
    S3_REGION: stack.s3.region,
  });
  afterAll(async () => {
    const names: string[] = [];
    for await (const item of store.client.listObjectsV2(store.bucket, '', true)) if (item.name) names.push(item.name);
    await store.client.removeObjects(store.bucket, names);
    await store.client.removeBucket(store.bucket);
  });

  it('creates its bucket once, then puts, stats and gets an object', async () => {
    await ensureBucket(store, stack.s3.region);
    await ensureBucket(store, stack.s3.region);
    const body = randomBytes(4096);
    await store.client.putObject(store.bucket, 'probe.bin', body, body.length, { 'Content-Type': 'application/octet-stream' });
    const stat = await store.client.statObject(store.bucket, 'probe.bin');
    expect(stat.size).toBe(body.length);
    expect(stat.metaData['content-type']).toBe('application/octet-stream');
    const chunks: Buffer[] = [];
    for await (const chunk of await store.client.getObject(store.bucket, 'probe.bin')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
    await expect(objectStoreReadiness(store).check()).resolves.toBeUndefined();
  });
});
