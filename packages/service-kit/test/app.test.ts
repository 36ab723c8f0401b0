import Router from '@koa/router';
import pino from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { HttpError, createServiceApp, parseInput, type ReadinessCheck } from '../src';

const silent = pino({ level: 'silent' });

function appWith(routes: (router: Router) => void, readiness: ReadinessCheck[] = []) {
  const router = new Router();
  routes(router);
  return createServiceApp({ service: 'test', logger: silent, routers: [router], readiness }).callback();
}

describe('service app', () => {
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
    expect(ready.body.status).toBe('ready');
    const unready = await request(appWith(() => undefined, [up, down])).get('/readyz');
    expect(unready.status).toBe(503);
    expect(unready.body.checks).toEqual({ up: { ok: true }, down: { ok: false, error: 'connection refused' } });
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

  it('answers unknown paths and wrong methods with JSON', async () => {
    const app = appWith((r) => r.get('/only-get', (ctx) => void (ctx.body = {})));
    const missing = await request(app).get('/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Not found' });
    const wrongMethod = await request(app).delete('/only-get');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({ message: 'Method not allowed' });
  });
});
