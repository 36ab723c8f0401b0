import Router from '@koa/router';
import pino from 'pino';
import request from 'supertest';
import { createServiceApp, jsonBody } from '../src';

function app() {
  const router = new Router();
  router.post('/echo', jsonBody(), (ctx) => {
    ctx.body = { received: ctx.request.body ?? null };
  });
  return createServiceApp({ service: 'test', logger: pino({ level: 'silent' }), routers: [router], readiness: [] }).callback();
}

describe('JSON bodies', () => {
  it('parses JSON', async () => {
    const res = await request(app()).post('/echo').send({ logoId: 'a' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: { logoId: 'a' } });
  });

  it('refuses other content types with 415', async () => {
    const res = await request(app()).post('/echo').set('Content-Type', 'text/plain').send('logoId=a');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: 'Content-Type must be application/json' });
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await request(app()).post('/echo').set('Content-Type', 'application/json').send('{"logoId": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Request body must be valid JSON' });
  });

  it('refuses bodies over the limit with 413', async () => {
    const res = await request(app())
      .post('/echo')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ padding: 'x'.repeat(20_000) }));
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/at most/);
  });
});
