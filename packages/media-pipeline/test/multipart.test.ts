import { existsSync, readFileSync } from 'node:fs';
import Router from '@koa/router';
import pino from 'pino';
import request from 'supertest';
import { textMessages } from '@logovote/contracts';
import { createServiceApp } from '@logovote/service-kit';
import { multipartUpload, receivedUpload } from '../src';
import { oversized } from './fixtures';

const MB = 1024 * 1024;
const messages = textMessages('The file name');
let seenPaths: string[] = [];

function app() {
  const router = new Router();
  router.post(
    '/upload',
    multipartUpload({
      fileField: 'logos',
      maxFiles: 2,
      maxFileBytes: 2 * MB,
      textFields: ['note'],
      repeatedTextFields: { label: 2 },
      maxFieldBytes: 64,
      tooManyFilesMessage: 'At most 2 files',
      uploadRate: { minBytesPerSecond: 1024, graceSeconds: 10, maxSeconds: 60 },
    }),
    (ctx) => {
      const { files, fields, repeatedFields } = receivedUpload(ctx);
      seenPaths = files.map((file) => file.path);
      ctx.body = {
        fields,
        repeatedFields,
        files: files.map((file) => ({ ...file, path: undefined, content: readFileSync(file.path, 'latin1') })),
      };
    },
  );
  return createServiceApp({ service: 'test', logger: pino({ level: 'silent' }), routers: [router], readiness: [] }).callback();
}

describe('multipart uploads', () => {
  beforeEach(() => (seenPaths = []));

  it('streams files to temporary files, keeps the named fields, and removes the files afterwards', async () => {
    const res = await request(app())
      .post('/upload')
      .field('note', 'hello')
      .attach('logos', Buffer.from('first'), { filename: '../../etc/passwd', contentType: 'image/png' })
      .attach('logos', Buffer.from('second'), { filename: 'C:\\Users\\me\\Désktop\\logo 2.svg', contentType: 'image/svg+xml' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      fields: { note: 'hello' },
      repeatedFields: {},
      files: [
        { originalName: 'passwd', declaredType: 'image/png', size: 5, content: 'first' },
        { originalName: 'logo 2.svg', declaredType: 'image/svg+xml', size: 6, content: 'second' },
      ],
    });
    expect(res.body.files[1].originalName).toBe('logo 2.svg');
    expect(seenPaths).toHaveLength(2);
    for (const path of seenPaths) expect(existsSync(path)).toBe(false);
  });

  it('keeps a repeated field in the order sent, up to one value per file', async () => {
    const res = await request(app())
      .post('/upload')
      .field('label', 'Second')
      .field('label', '')
      .attach('logos', Buffer.from('x'), { filename: 'a.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    expect(res.body.repeatedFields).toEqual({ label: ['Second', ''] });

    const tooMany = await request(app()).post('/upload').field('label', '1').field('label', '2').field('label', '3');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ message: '"label" was sent more than 2 times' });

    const tooLong = await request(app()).post('/upload').field('label', 'x'.repeat(65));
    expect(tooLong.status).toBe(413);
    expect(tooLong.body).toEqual({ message: '"label" is too long' });
  });

  it('ignores the empty part a file input sends when nothing was chosen', async () => {
    const res = await request(app()).post('/upload').attach('logos', Buffer.alloc(0), { filename: '' });
    expect(res.status).toBe(200);
    expect(res.body.files).toEqual([]);
  });

  it('refuses a 3 MB file with 413 while it streams, and answers before the client is done', async () => {
    const res = await request(app())
      .post('/upload')
      .attach('logos', oversized(3 * MB), { filename: 'huge.png', contentType: 'image/png' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: '"huge.png" is larger than 2 MB' });
  });

  it('refuses a body whose declared length no valid upload needs, before reading it', async () => {
    const res = await request(app())
      .post('/upload')
      .set('Content-Type', 'multipart/form-data; boundary=x')
      .set('Content-Length', String(10 * MB))
      .send('--x--');
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Request body too large: at most 2 file(s) of 2 MB each');
  });

  it.each([
    [
      'too many files',
      (r: request.Test) =>
        r.attach('logos', Buffer.from('a'), 'a.png').attach('logos', Buffer.from('b'), 'b.png').attach('logos', Buffer.from('c'), 'c.png'),
      400,
      'At most 2 files',
    ],
    [
      'another file field',
      (r: request.Test) => r.attach('image', Buffer.from('a'), 'a.png'),
      400,
      'Unexpected file field "image": send files as "logos"',
    ],
    ['an unknown text field', (r: request.Test) => r.field('paymentPlan', 'free'), 400, 'Unexpected field "paymentPlan"'],
    ['a field over its limit', (r: request.Test) => r.field('note', 'x'.repeat(65)), 413, '"note" is too long'],
    ['a repeated field', (r: request.Test) => r.field('note', 'a').field('note', 'b'), 400, '"note" was sent more than once'],
  ])('refuses %s', async (_, build, status, message) => {
    const res = await build(request(app()).post('/upload'));
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message });
    for (const path of seenPaths) expect(existsSync(path)).toBe(false);
  });

  it.each([
    ['a right-to-left override', 'invoice\u202Egnp.exe', messages.direction],
    ['a NUL byte', 'logo\u0000.png', messages.control],
    ['a line break', 'logo\n.png', messages.lineBreak],
  ])('refuses a file name with %s (400), naming the file, and keeps no file', async (_, filename, message) => {
    const boundary = 'named';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="logos"; filename="a.png"\r\n\r\nfirst\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="logos"; filename*=UTF-8''${encodeURIComponent(filename)}\r\n\r\nsecond\r\n` +
        `--${boundary}--\r\n`,
    );
    const res = await request(app()).post('/upload').set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `logos (file 2): ${message}` });
    expect(seenPaths).toEqual([]);
  });

  it('refuses bodies that are not multipart (415) and multipart without a boundary (400)', async () => {
    const json = await request(app()).post('/upload').send({ logos: [] });
    expect(json.status).toBe(415);
    expect(json.body).toEqual({ message: 'Content-Type must be multipart/form-data' });
    const broken = await request(app()).post('/upload').set('Content-Type', 'multipart/form-data').send('x');
    expect(broken.status).toBe(400);
  });
});
