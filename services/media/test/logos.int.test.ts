import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { findFreePort } from '@logovote/devstack';
import { POLL_HIDDEN } from '@logovote/contracts';
import { LOGO_NOT_FOUND, NsfwjsModeration, createUploadPipeline } from '@logovote/media-pipeline';
import { LogoFileModel, PollModel, hideIfReportedEnough, insertReport, recordLogoFiles } from '@logovote/models';
import { createObjectStore, type ObjectStore } from '@logovote/service-kit';
import { png, svg } from '../../../packages/media-pipeline/test/fixtures';
import {
  connectTestDatabase,
  createPoll,
  dropTestDatabase,
  isolatedStore,
  removeBucket,
  silentLogger,
  storeSettings,
  testDatabaseUri,
} from '../../../tests/support/integration';
import { buildApp } from '../src/app';

// Connecting creates the collections and their indexes, which can take seconds on a busy FerretDB.
jest.setTimeout(30_000);

// The logos route never touches the classifier; the app still needs a pipeline for the moderation route.
const pipeline = createUploadPipeline({ moderation: new NsfwjsModeration({ threshold: 0.7 }) });
const appOn = (store: ObjectStore) => buildApp({ logger: silentLogger, store, pipeline }).callback();
const objectName = (extension: string) => `${randomBytes(16).toString('base64url')}.${extension}`;

let store: ObjectStore;
const pngName = objectName('png');
const svgName = objectName('svg');
let pngBytes: Buffer;
// Stored directly, as if it had slipped past the upload checks: serving must still make it harmless.
const hostileSvg = svg('<script>alert(document.domain)</script>');

/** Stores an image under a new name, as a logo of a new poll (in `state`). */
async function storedLogo(
  bytes: Buffer,
  contentType: string,
  state: 'active' | 'deleting' = 'active',
): Promise<{ name: string; pollId: string }> {
  const name = objectName(contentType === 'image/png' ? 'png' : 'svg');
  await store.client.putObject(store.bucket, name, bytes, bytes.length, { 'Content-Type': contentType });
  const { sessionId } = await createPoll({ state });
  await recordLogoFiles(sessionId, [name]);
  return { name, pollId: sessionId };
}

beforeAll(async () => {
  await connectTestDatabase(testDatabaseUri('logos'), [PollModel, LogoFileModel]);
  store = await isolatedStore('logos');
  pngBytes = await png();
  await store.client.putObject(store.bucket, pngName, pngBytes, pngBytes.length, { 'Content-Type': 'image/png' });
  await store.client.putObject(store.bucket, svgName, hostileSvg, hostileSvg.length, { 'Content-Type': 'image/svg+xml' });
  const { sessionId } = await createPoll();
  await recordLogoFiles(sessionId, [pngName, svgName]);
});
afterAll(async () => {
  await removeBucket(store);
  await dropTestDatabase();
});

describe('GET and HEAD /api/logos/:filename', () => {
  it('streams the image with its type, length, ETag, long immutable caching and nosniff', async () => {
    const res = await request(appOn(store)).get(`/api/logos/${pngName}`).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(pngBytes.length));
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['last-modified']).toBeDefined();
    expect(Buffer.compare(res.body as Buffer, pngBytes)).toBe(0);
  });

  it('answers HEAD with the same headers and no body', async () => {
    const res = await request(appOn(store)).head(`/api/logos/${pngName}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(pngBytes.length));
    expect(res.headers.etag).toMatch(/^"/);
    expect(res.text ?? '').toBe('');
  });

  it('answers 304 to a request that already has the current version', async () => {
    const first = await request(appOn(store)).get(`/api/logos/${pngName}`);
    const again = await request(appOn(store)).get(`/api/logos/${pngName}`).set('If-None-Match', first.headers.etag!);
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves SVG under a sandboxing Content-Security-Policy, so a crafted file opened directly runs nothing', async () => {
    const res = await request(appOn(store)).get(`/api/logos/${svgName}`).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const policy = res.headers['content-security-policy'] ?? '';
    expect(policy).toMatch(/(^|; )sandbox(;|$)/);
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/script-src/);
  });

  it('answers 404 with a message for a name that is not stored', async () => {
    const res = await request(appOn(store)).get(`/api/logos/${objectName('png')}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: LOGO_NOT_FOUND });
    expect((await request(appOn(store)).head(`/api/logos/${objectName('svg')}`)).status).toBe(404);
  });

  it('answers 404 for a stored image no poll names, and for one whose poll is being deleted', async () => {
    const orphan = objectName('png');
    await store.client.putObject(store.bucket, orphan, pngBytes, pngBytes.length, { 'Content-Type': 'image/png' });
    const deleting = await storedLogo(pngBytes, 'image/png', 'deleting');
    for (const name of [orphan, deleting.name]) {
      const res = await request(appOn(store)).get(`/api/logos/${name}`);
      expect([res.status, res.body]).toEqual([404, { message: LOGO_NOT_FOUND }]);
    }
  });

  it('refuses the image of a poll hidden pending review with a JSON 403, GET, HEAD and revalidation alike', async () => {
    const hidden = await storedLogo(pngBytes, 'image/png');
    const shown = await request(appOn(store)).get(`/api/logos/${hidden.name}`);
    expect(shown.status).toBe(200);
    for (const ipHash of ['a', 'b', 'c']) await insertReport({ pollId: hidden.pollId, round: 0, ipHash, category: 'misleading' });
    expect(await hideIfReportedEnough(hidden.pollId, 0, 3)).toBe(true);
    const get = await request(appOn(store)).get(`/api/logos/${hidden.name}`);
    expect([get.status, get.body]).toEqual([403, { message: POLL_HIDDEN }]);
    expect((await request(appOn(store)).head(`/api/logos/${hidden.name}`)).status).toBe(403);
    const revalidated = await request(appOn(store)).get(`/api/logos/${hidden.name}`).set('If-None-Match', shown.headers.etag!);
    expect(revalidated.status).toBe(403);
  });

  it('turns traversal and odd names away before they reach storage', async () => {
    // With storage unreachable, only a request that reached it could fail with a 5xx (503: try again shortly).
    const unreachable = createObjectStore(storeSettings(store.bucket, { S3_ENDPOINT: `http://127.0.0.1:${await findFreePort()}` }));
    const app = appOn(unreachable);
    const reached = await request(app).get(`/api/logos/${pngName}`);
    expect(reached.status).toBe(503);
    expect(reached.body).toEqual({ message: 'Service temporarily unavailable. Please try again shortly.' });
    for (const name of [
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '%2e%2e',
      `..%2F${pngName}`,
      `${pngName.slice(0, -4)}.gif`,
      `${pngName.slice(0, -4)}.PNG`,
      `${pngName}%00.png`,
      `${'A'.repeat(21)}.png`,
      'index.html',
    ]) {
      const res = await request(app).get(`/api/logos/${name}`);
      expect([name, res.status, res.body]).toEqual([name, 404, { message: LOGO_NOT_FOUND }]);
    }
  });
});
