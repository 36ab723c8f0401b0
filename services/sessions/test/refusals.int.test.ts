import type { Server } from 'node:http';
import mongoose from 'mongoose';
import pino from 'pino';
import request from 'supertest';
import { DAY_MS, UploadRefusalList, type UploadRefusal } from '@logovote/contracts';
import { ModerationSuite, NsfwjsModeration, createUploadPipeline } from '@logovote/media-pipeline';
import { PollModel, recordUploadRefusal, sweepUploadRefusals, type NewUploadRefusal } from '@logovote/models';
import { connectMongo, disconnectMongo, type ObjectStore } from '@logovote/service-kit';
import { pixelBombPng, png, svg } from '../../../packages/media-pipeline/test/fixtures';
import { isolatedStore, objectNames, removeBucket, silentLogger, testDatabaseUri } from '../../../tests/support/integration';
import { UploadRefusalRecorder } from '../src/polls/upload-refusals';
import { createSession, realPipeline, sessionsServer, type Upload } from './support';
import { storedModel } from '@logovote/models/test-support';

const UploadRefusalModel = storedModel('upload_refusals');
const LogBucketModel = storedModel<{ parent: string; start: number }>('log_buckets');

// Each upload is decoded and classified for real.
jest.setTimeout(60_000);

const databaseUri = testDatabaseUri('refusals');
const recorder = new UploadRefusalRecorder(silentLogger);
let store: ObjectStore;
/** The pipeline of the running service (nudity refused from a score of 0.7). */
let server: Server;
/** The same with a nudity check that refuses everything: a refusal by content moderation, through the real model. */
let strictServer: Server;

beforeAll(async () => {
  await connectMongo(databaseUri, silentLogger);
  store = await isolatedStore('refusals');
  const pipeline = realPipeline();
  const strict = createUploadPipeline({
    moderation: new ModerationSuite([{ check: 'nudity', provider: new NsfwjsModeration({ threshold: 0 }) }]),
  });
  await Promise.all([pipeline.moderation.warmUp(), strict.moderation.warmUp()]);
  server = sessionsServer(store, pipeline, recorder);
  strictServer = sessionsServer(store, strict, recorder);
}, 120_000);

afterAll(async () => {
  await Promise.all([server, strictServer].map((each) => new Promise((resolve) => each.close(resolve))));
  await removeBucket(store);
  await mongoose.connection.dropDatabase();
  await disconnectMongo();
});

beforeEach(async () => {
  // The log's own sweep, as if a month had passed: every refusal goes, and the process forgets their buckets' markers.
  await sweepUploadRefusals(new Date(Date.now() + 31 * DAY_MS));
});

/** Every refusal the admin API lists, following the pages. */
async function listedRefusals(limit?: number): Promise<{ refusals: UploadRefusal[]; pages: number }> {
  const refusals: UploadRefusal[] = [];
  let pages = 0;
  for (let path: string | undefined = `/api/admin/refusals${limit ? `?limit=${limit}` : ''}`; path; pages++) {
    const res: request.Response = await request(server).get(path);
    expect([res.status, res.headers['cache-control']]).toEqual([200, 'no-store']);
    const page = UploadRefusalList.parse(res.body);
    if (limit) expect(page.length).toBeLessThanOrEqual(limit);
    refusals.push(...page);
    path = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
    expect(pages).toBeLessThan(20);
  }
  return { refusals, pages };
}

const refusal = (fileName: string): NewUploadRefusal => ({
  fileName,
  declaredType: 'image/png',
  size: 1234,
  stage: 'type',
  status: 415,
  message: `"${fileName}" is not a PNG, JPEG, SVG or WebP image`,
});

describe('uploads refused at poll creation are recorded for the admin', () => {
  it('records a refusal at each stage with its file, stage and message, newest first', async () => {
    const cut = await png(400, 400, { r: 1, g: 2, b: 3 });
    const fine: Upload = ['fine.png', await png()];
    const cases: { server: () => Server; uploads: Upload[]; type: string; status: number; stage: UploadRefusal['stage'] }[] = [
      // A good logo beside the refused one: the creation fails, and only the refused file is recorded.
      {
        server: () => server,
        uploads: [fine, ['notes.png', Buffer.from('just some text\n')]],
        type: 'image/png',
        status: 415,
        stage: 'type',
      },
      {
        server: () => server,
        uploads: [fine, ['script.svg', svg('<script>alert(1)</script>')]],
        type: 'image/svg+xml',
        status: 422,
        stage: 'svg',
      },
      {
        server: () => server,
        uploads: [fine, ['cut.png', cut.subarray(0, Math.floor(cut.length / 2))]],
        type: 'image/png',
        status: 422,
        stage: 'decode',
      },
      { server: () => server, uploads: [fine, ['bomb.png', pixelBombPng()]], type: 'image/png', status: 422, stage: 'dimensions' },
      { server: () => strictServer, uploads: [['flagged.png', await png()]], type: 'image/png', status: 422, stage: 'moderation' },
    ];
    const answers: string[] = [];
    for (const each of cases) {
      const res = await createSession(each.server(), each.uploads);
      expect([each.stage, res.status]).toEqual([each.stage, each.status]);
      answers.push(res.body.message as string);
    }
    await recorder.idle();

    const { refusals } = await listedRefusals();
    expect(refusals.map((listed) => listed.stage)).toEqual(cases.map((each) => each.stage).reverse());
    for (const [index, each] of [...cases].reverse().entries()) {
      const listed = refusals[index]!;
      const [fileName, bytes] = each.uploads[each.uploads.length - 1]!;
      expect(listed).toMatchObject({
        fileName,
        declaredType: each.type,
        size: bytes.length,
        stage: each.stage,
        status: each.status,
        message: answers[cases.length - 1 - index],
      });
      expect(Date.now() - Date.parse(listed.at)).toBeLessThan(DAY_MS);
    }
    // Only moderation names its checks: the one that refused, with its reason (the message carries it too).
    const moderation = refusals[0]!;
    expect(moderation.message).toMatch(/^"flagged\.png" was rejected by content moderation: Nudity detected/);
    expect(moderation.refusedBy).toEqual(['nudity']);
    expect(moderation.checks).toEqual([{ check: 'nudity', isValid: false, reason: expect.stringMatching(/^Nudity detected \(/) }]);
    for (const other of refusals.slice(1)) expect([other.refusedBy, other.checks]).toEqual([undefined, undefined]);
    // No poll was made of the good logos beside them.
    expect(await PollModel.countDocuments()).toBe(0);
  });

  it('keeps no image: no bytes, no model output, only the listed fields', async () => {
    const flagged = await png(64, 64, { r: 220, g: 170, b: 140 });
    expect((await createSession(strictServer, [['flagged.png', flagged]])).status).toBe(422);
    const bomb = pixelBombPng();
    expect((await createSession(server, [['bomb.png', bomb]])).status).toBe(422);
    await recorder.idle();

    const stored = await mongoose.connection.collection('upload_refusals').find({}).toArray();
    expect(stored).toHaveLength(2);
    for (const document of stored) {
      const allowed = [
        '_id',
        'bucket',
        'sweepBucket',
        'at',
        'fileName',
        'declaredType',
        'size',
        'stage',
        'status',
        'message',
        'refusedBy',
        'checks',
      ];
      expect(Object.keys(document).filter((key) => !allowed.includes(key))).toEqual([]);
      const text = JSON.stringify(document);
      // Nothing binary, nothing near an image's size, none of the model's scores.
      expect(text.length).toBeLessThan(1_000);
      expect(text).not.toMatch(/predictions|rawResponse|nudityScore|elapsedMs/);
      for (const bytes of [flagged, bomb]) {
        expect(text).not.toContain(bytes.toString('base64').slice(0, 40));
        expect(text).not.toContain(bytes.toString('hex').slice(0, 40));
      }
      for (const value of Object.values(document)) expect(value instanceof mongoose.mongo.Binary || Buffer.isBuffer(value)).toBe(false);
    }
    // Nor in object storage.
    expect(await objectNames(store)).toEqual([]);
  });

  it('lists the last 30 days only, and the sweep deletes what is older', async () => {
    const now = Date.now();
    await recordUploadRefusal(refusal('older.png'), new Date(now - 31 * DAY_MS));
    await recordUploadRefusal(refusal('just-over.png'), new Date(now - 30 * DAY_MS - 60_000));
    await recordUploadRefusal(refusal('within.png'), new Date(now - 29 * DAY_MS));
    await recordUploadRefusal(refusal('today.png'), new Date(now - 60_000));

    const { refusals } = await listedRefusals();
    expect(refusals.map((listed) => listed.fileName)).toEqual(['today.png', 'within.png']);

    expect(await sweepUploadRefusals()).toBeGreaterThanOrEqual(1);
    const left = (await UploadRefusalModel.find({}, { fileName: 1 }).lean<{ fileName: string }[]>()).map((kept) => kept.fileName).sort();
    // Whole hours past the window go; 'just-over' may share its hour with the window's first and stay, unlisted.
    expect(left).not.toContain('older.png');
    expect(left).toEqual(expect.arrayContaining(['today.png', 'within.png']));
    const hours = (await LogBucketModel.find({ parent: 'upload-refusals' }, { start: 1 }).lean()).map((bucket) => bucket.start);
    expect(Math.min(...hours)).toBeGreaterThan(now - 31 * DAY_MS);
    expect((await listedRefusals()).refusals.map((listed) => listed.fileName)).toEqual(['today.png', 'within.png']);
  });

  it('gives the list a page at a time, newest first, across hours, with a cursor to the next page', async () => {
    const now = Date.now();
    // 45 refusals 7 minutes apart (six hours), two of them in the same millisecond.
    const made: { name: string; at: number }[] = Array.from({ length: 45 }, (_, index) => ({
      name: `r${String(index).padStart(2, '0')}.png`,
      at: now - (index === 44 ? 43 : index) * 7 * 60_000 - 1_000,
    }));
    for (const { name, at } of made) await recordUploadRefusal(refusal(name), new Date(at));

    const { refusals, pages } = await listedRefusals(20);
    expect(pages).toBe(3);
    expect(refusals).toHaveLength(45);
    expect(new Set(refusals.map((listed) => listed.refusalId)).size).toBe(45);
    const times = refusals.map((listed) => Date.parse(listed.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(refusals.slice(0, 43).map((listed) => listed.fileName)).toEqual(made.slice(0, 43).map((each) => each.name));

    const first = await request(server).get('/api/admin/refusals');
    expect(UploadRefusalList.parse(first.body)).toHaveLength(20);
    expect(first.headers.link).toMatch(/^<\/api\/admin\/refusals\?before=\d{13}-[0-9a-f]{8}&limit=20>; rel="next"$/);
  });

  it('says so when nothing was refused: an empty list without a next page', async () => {
    const res = await request(server).get('/api/admin/refusals');
    expect([res.status, res.body, res.headers.link]).toEqual([200, [], undefined]);
  });

  it('refuses a malformed page request with a clear 400', async () => {
    for (const query of ['before=abc', 'before=1', 'before=1764000000000-XYZ', 'limit=0', 'limit=101', 'limit=2.5']) {
      const res = await request(server).get(`/api/admin/refusals?${query}`);
      expect([query, res.status, typeof res.body.message]).toEqual([query, 400, 'string']);
    }
  });

  it("answers the creation's own 4xx even when the refusal cannot be recorded (logged, nothing stored)", async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const failing = new UploadRefusalRecorder(logger);
    const app = sessionsServer(store, realPipeline(), failing);
    // The refusal's write fails as it does when the database goes away after the creation's limit was checked
    // (a creation with the database gone from the start is a 503: its per-address limit cannot be counted).
    const unavailable = Object.assign(new Error('connection closed'), { name: 'MongoNetworkError' });
    const write = jest.spyOn(UploadRefusalModel, 'create').mockRejectedValueOnce(unavailable);
    try {
      const res = await createSession(app, [['notes.png', Buffer.from('not an image')]]);
      expect([res.status, res.body.message]).toEqual([415, '"notes.png" is not a PNG, JPEG, SVG or WebP image']);
      await failing.idle();
      expect(lines.join('')).toContain('upload refusal not recorded');
    } finally {
      write.mockRestore();
      await new Promise((resolve) => app.close(resolve));
    }
    expect(await UploadRefusalModel.countDocuments()).toBe(0);
  });
});
