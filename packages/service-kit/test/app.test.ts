import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Router from '@koa/router';
import pino from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { HttpError, answerClientErrorsWithJson, createServiceApp, parseInput, type ReadinessCheck } from '../src';

const silent = pino({ level: 'silent' });

function appWith(routes: (router: Router) => void, readiness: ReadinessCheck[] = []) {
  const router = new Router();
  routes(router);
  return createServiceApp({ service: 'test', logger: silent, routers: [router], readiness }).callback();
}

describe('service app', () => {
  // Both answers name the service: a stack's readiness wait tells by the name that the server on a port is the one it started.
  it('answers /healthz while the process is up', async () => {
    const res = await request(appWith(() => undefined)).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', service: 'test' });
  });

  it('is ready only when every dependency answers', async () => {
    const up: ReadinessCheck = { name: 'up', check: async () => undefined };
    const down: ReadinessCheck = { name: 'down', check: async () => Promise.reject(new Error('connection refused')) };
    const ready = await request(appWith(() => undefined, [up])).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', service: 'test' });
    const unready = await request(appWith(() => undefined, [up, down])).get('/readyz');
    expect(unready.status).toBe(503);
    expect(unready.body).toMatchObject({ status: 'unavailable', service: 'test' });
    // The reason is logged, not published: it could name internal hosts.
    expect(unready.body.checks).toEqual({ up: { ok: true }, down: { ok: false, error: 'unavailable' } });
  });

  it('turns invalid input into a 400 with a readable message', async () => {
    const schema = z.object({ logoId: z.string().min(1, 'logoId is required') });
    const res = await request(appWith((r) => r.get('/x', (ctx) => void (ctx.body = parseInput(schema, { logoId: '' }))))).get('/x');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'logoId: logoId is required' });
  });

  it('keeps the status and message of deliberate client errors', async () => {
    const res = await request(
      appWith((r) =>
        r.get('/x', () => {
          throw new HttpError(429, 'Too many votes from this network', { 'Retry-After': '60' });
        }),
      ),
    ).get('/x');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('60');
    expect(res.body).toEqual({ message: 'Too many votes from this network' });
  });

  it('hides the details of unexpected failures', async () => {
    const res = await request(
      appWith((r) =>
        r.get('/x', () => {
          throw new Error('ECONNREFUSED /var/lib/secret/path');
        }),
      ),
    ).get('/x');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'Internal server error' });
  });

  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:27017'), { code: 'ECONNREFUSED' })],
    [
      'a MongoDB server that cannot be selected',
      Object.assign(new Error('Server selection timed out'), { name: 'MongoServerSelectionError' }),
    ],
    ['a busy object store', Object.assign(new Error('Please reduce your request rate'), { code: 'SlowDown' })],
    [
      'a lost connection behind a wrapper',
      new Error('query failed', { cause: Object.assign(new Error('x'), { name: 'MongoNetworkError' }) }),
    ],
  ])('answers %s with a 503 that names nothing internal', async (_, failure) => {
    const res = await request(
      appWith((r) =>
        r.get('/x', () => {
          throw failure;
        }),
      ),
    ).get('/x');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ message: 'Service temporarily unavailable. Please try again shortly.' });
  });

  it('answers unknown paths and wrong methods with JSON', async () => {
    const app = appWith((r) => r.get('/only-get', (ctx) => void (ctx.body = {})));
    const missing = await request(app).get('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Not found' });
    const wrongMethod = await request(app).delete('/only-get');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({ message: 'Method not allowed' });
    // A method no route implements is a wrong method too, not the router's 501.
    const unimplemented = await request(app).propfind('/only-get');
    expect(unimplemented.status).toBe(405);
    expect(unimplemented.body).toEqual({ message: 'Method not allowed' });
  });
});

describe('requests the HTTP parser refuses', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_, res) => res.end('{}'));
    answerClientErrorsWithJson(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Writes raw bytes and reads the whole answer (the server closes the connection after a refusal). */
  const raw = (data: string) =>
    new Promise<string>((resolve, reject) => {
      let answer = '';
      const socket = connect(port, '127.0.0.1', () => socket.write(data));
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });

  it.each([
    ['headers over the 16 KB limit', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'Request headers too large'],
    ['a malformed header line', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400, 'Bad request'],
    ['a method Node does not know', 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'Bad request'],
  ])('answers %s with JSON', async (_, request, status, message) => {
    const answer = await raw(request);
    expect(answer.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
    expect(answer).toContain('Content-Type: application/json');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ message });
  });
});
