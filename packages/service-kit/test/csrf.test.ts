import Router from '@koa/router';
import pino from 'pino';
import request from 'supertest';
import { CSRF_COOKIE, CSRF_REJECTED, createServiceApp, issueCsrfToken, requireCsrf } from '../src';

const secret = 'a-test-secret-that-is-long-enough-000';

function app() {
  const router = new Router();
  router.get('/sessions/:sessionId', (ctx) => {
    ctx.body = { csrfToken: issueCsrfToken(ctx, secret, ctx.params.sessionId!) };
  });
  router.post('/sessions/:sessionId/vote', requireCsrf(secret), (ctx) => {
    ctx.body = { ok: true };
  });
  return createServiceApp({ service: 'test', logger: pino({ level: 'silent' }), routers: [router], readiness: [] }).callback();
}

describe('anti-forgery tokens', () => {
  it('issues an HttpOnly SameSite cookie once and a token bound to it and to the poll', async () => {
    const agent = request.agent(app());
    const first = await agent.get('/sessions/AAAAAAAAAAAAAAAA');
    const cookie = first.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toContain(`${CSRF_COOKIE}=`);
    expect(cookie.toLowerCase()).toContain('httponly');
    expect(cookie.toLowerCase()).toContain('samesite=lax');
    expect(cookie.toLowerCase()).not.toContain('secure');
    const again = await agent.get('/sessions/AAAAAAAAAAAAAAAA');
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body.csrfToken).toBe(first.body.csrfToken);

    const ok = await agent.post('/sessions/AAAAAAAAAAAAAAAA/vote').set('X-CSRF-Token', first.body.csrfToken);
    expect(ok.status).toBe(200);
  });

  it('marks the cookie Secure behind TLS', async () => {
    const res = await request(app()).get('/sessions/AAAAAAAAAAAAAAAA').set('X-Forwarded-Proto', 'https');
    expect(res.headers['set-cookie']?.[0]?.toLowerCase()).toContain('secure');
  });

  it.each([
    ['no token', (t: string) => ({ token: undefined, session: 'AAAAAAAAAAAAAAAA', cookie: true, t })],
    ['a token for another poll', (t: string) => ({ token: t, session: 'BBBBBBBBBBBBBBBB', cookie: true, t })],
    ['a token without its cookie', (t: string) => ({ token: t, session: 'AAAAAAAAAAAAAAAA', cookie: false, t })],
    ['a tampered token', (t: string) => ({ token: `${t.slice(0, -2)}xx`, session: 'AAAAAAAAAAAAAAAA', cookie: true, t })],
  ])('refuses %s with 403', async (_, scenario) => {
    const agent = request.agent(app());
    const issued = await agent.get('/sessions/AAAAAAAAAAAAAAAA');
    const { token, session, cookie } = scenario(issued.body.csrfToken as string);
    const client = cookie ? agent : request(app());
    let req = client.post(`/sessions/${session}/vote`);
    if (token) req = req.set('X-CSRF-Token', token);
    const res = await req;
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: CSRF_REJECTED });
  });
});
