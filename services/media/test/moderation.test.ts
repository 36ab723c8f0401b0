import request from 'supertest';
import { ModerationResult } from '@logovote/contracts';
import { NsfwjsModeration, createUploadPipeline } from '@logovote/media-pipeline';
import { createObjectStore } from '@logovote/service-kit';
import { jpeg, oversized, pixelBombPng, png, svg, zipArchive } from '../../../packages/media-pipeline/test/fixtures';
import { silentLogger } from '../../../tests/support/integration';
import { buildApp } from '../src/app';
import { NO_IMAGE } from '../src/routes/moderation';

// No servers: the moderation test never touches storage (the store points nowhere).
jest.setTimeout(30_000);
const store = createObjectStore({
  S3_ENDPOINT: 'http://127.0.0.1:9',
  S3_ACCESS_KEY: 'key',
  S3_SECRET_KEY: 'secret-key',
  S3_BUCKET: 'unused',
  S3_REGION: 'us-east-1',
});
const classifier = new NsfwjsModeration({ threshold: 0.7 });
const app = buildApp({ logger: silentLogger, store, pipeline: createUploadPipeline({ moderation: classifier }) }).callback();
const moderate = (bytes: Buffer, name: string) => request(app).post('/api/test/moderate').attach('image', bytes, name);

describe('POST /api/test/moderate', () => {
  beforeAll(() => classifier.warmUp(), 60_000);

  it('passes a clean logo, with the classifier raw response', async () => {
    const res = await moderate(await png(), 'logo.png');
    expect(res.status).toBe(200);
    const result = ModerationResult.parse(res.body);
    expect(result).toMatchObject({ isValid: true, reason: 'No nudity detected' });
    expect(result.rawResponse).toMatchObject({ provider: 'nsfwjs', model: 'MobileNetV2', threshold: 0.7, predictions: expect.any(Array) });
    expect((result.rawResponse as { predictions: unknown[] }).predictions).toHaveLength(5);
  });

  it.each([
    ['a ZIP called .png', () => zipArchive(), 'logo.png', 'type', '"logo.png" is not a PNG, JPEG, SVG or WebP image'],
    ['an SVG with a script', () => svg('<script>alert(1)</script>'), 'x.svg', 'svg', /^"x\.svg" was refused: .*<script> element/],
    [
      'a 20000×20000 PNG',
      () => pixelBombPng(),
      'bomb.png',
      'dimensions',
      '"bomb.png" is 20000×20000 pixels; logos may have at most 25 million pixels',
    ],
  ])('reports %s as failing validation, from the same pipeline as poll creation', async (_, make, name, stage, reason) => {
    const res = await moderate(make(), name);
    expect(res.status).toBe(200);
    expect(res.body.isValid).toBe(false);
    expect(res.body.reason).toEqual(typeof reason === 'string' ? reason : expect.stringMatching(reason));
    expect(res.body.rawResponse).toMatchObject({ stage });
  });

  it('reports what moderation flags, with its raw response', async () => {
    const strict = createUploadPipeline({ moderation: new NsfwjsModeration({ threshold: 0 }) });
    const res = await request(buildApp({ logger: silentLogger, store, pipeline: strict }).callback())
      .post('/api/test/moderate')
      .attach('image', await jpeg(), 'photo.jpg');
    expect(res.status).toBe(200);
    expect(res.body.isValid).toBe(false);
    expect(res.body.reason).toMatch(/^"photo\.jpg" was rejected by content moderation: Nudity detected/);
    expect(res.body.rawResponse).toMatchObject({ stage: 'moderation', provider: 'nsfwjs', threshold: 0 });
  }, 60_000);

  it('refuses a request without an image (400), with two (400), or over 2 MB (413)', async () => {
    const none = await request(app).post('/api/test/moderate').field('x', 'y');
    expect(none.status).toBe(400);
    const empty = await request(app).post('/api/test/moderate').attach('image', Buffer.alloc(0), '');
    expect(empty.body).toEqual({ message: NO_IMAGE });
    const two = await request(app)
      .post('/api/test/moderate')
      .attach('image', await png(), 'a.png')
      .attach('image', await png(), 'b.png');
    expect(two.status).toBe(400);
    expect(two.body).toEqual({ message: 'Send one image at a time' });
    const big = await moderate(oversized(2 * 1024 * 1024 + 1), 'big.png');
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ message: '"big.png" is larger than 2 MB' });
  });
});
