/**
 * The bad-input corpus (corpus.ts) against the shared test stack, through the gateway: every hostile request
 * gets a 4xx with a JSON `message` that reveals nothing internal, never a 5xx, and every service is still
 * ready afterwards. The requests come from loopback addresses of their own, so the gateway's per-address
 * rate limit counts them apart from the other test files.
 */
import { randomBytes } from 'node:crypto';
import { Readiness } from '@logovote/contracts';
import { testStack } from '../support/stack-env';
import { CORPUS, type CorpusContext, type HostileCase } from './corpus';
import { validImages } from './support/fixtures';
import { INTERNAL_DETAILS, call, callRaw, jsonMessage, multipart, targetOf, type Answer, type HttpCall } from './support/http';
import { createPollVia, tokenFor } from './support/polls';

const { gatewayUrl, admin } = testStack();
/** 20 client addresses, taken in turn: never enough requests from one to meet the rate limit. */
const targetFor = (index: number) => targetOf(gatewayUrl, `127.0.0.${60 + (index % 20)}`);

let ctx: CorpusContext;

beforeAll(async () => {
  const target = targetFor(0);
  const images = await validImages();
  const poll = await createPollVia(target, [images.png, images.jpeg]);
  const other = await createPollVia(target, [images.webp, images.png]);
  const mine = await tokenFor(target, poll.sessionId);
  const theirs = await tokenFor(target, other.sessionId, mine.cookie);
  ctx = {
    sessionId: poll.sessionId,
    otherSessionId: other.sessionId,
    logoIds: poll.logos.map((logo) => logo.id),
    filename: poll.logos[0]!.filename,
    cookie: mine.cookie,
    token: mine.token,
    otherToken: theirs.token,
    fingerprint: randomBytes(8).toString('hex'),
    adminAuthorization: `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString('base64')}`,
    images,
  };
});

async function send(hostile: HostileCase, index: number): Promise<Answer> {
  const request = hostile.send(ctx);
  const target = targetFor(index);
  if ('raw' in request) return callRaw(target, request.raw, { endAfterWrite: request.endAfterWrite ?? false, timeoutMs: 5000 });
  return call(target, request as HttpCall);
}

describe('the bad-input corpus', () => {
  it('holds at least 100 hostile requests, covering every endpoint', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(100);
    expect(new Set(CORPUS.map((hostile) => `${hostile.endpoint}: ${hostile.name}`)).size).toBe(CORPUS.length);
    expect(new Set(CORPUS.map((hostile) => hostile.endpoint)).size).toBe(14);
  });

  it.each(CORPUS.map((hostile, index) => [`${hostile.endpoint}: ${hostile.name}`, hostile, index] as const))(
    '%s → 4xx with a JSON message',
    async (_, hostile, index) => {
      const answer = await send(hostile, index);
      const message = jsonMessage(answer);
      // One expectation with everything in it, so a failure says what came back.
      expect({ status: answer.status, message, body: message ? undefined : answer.body.slice(0, 300) }).toEqual({
        status: expect.any(Number),
        message: expect.any(String),
        body: undefined,
      });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      if (hostile.status !== undefined) expect([hostile.status].flat()).toContain(answer.status);
      expect(message).not.toMatch(INTERNAL_DETAILS);
      expect(answer.headers['x-powered-by']).toBeUndefined();
    },
  );

  it('stores nothing from a client that hangs up in the middle of an upload', async () => {
    const marker = `hung-up-${randomBytes(6).toString('hex')}`;
    const boundary = 'hangup';
    const part = (disposition: string, data: Buffer | string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n`),
        Buffer.from(data),
        Buffer.from('\r\n'),
      ]);
    const sent = Buffer.concat([
      part('name="feedbackPrompt"', marker),
      part('name="logos"; filename="a.png"', ctx.images.png.subarray(0, 40)),
    ]);
    const head = `POST /api/sessions HTTP/1.1\r\nHost: logovote\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${sent.length + 5000}\r\n\r\n`;
    // Nobody is left to answer: the gateway closes the connection.
    await expect(callRaw(targetFor(1), Buffer.concat([Buffer.from(head), sent]), { endAfterWrite: true, timeoutMs: 5000 })).rejects.toThrow(
      /no complete HTTP answer/,
    );
    const list = await call(targetFor(1), { method: 'GET', path: '/api/admin/polls', headers: { Authorization: ctx.adminAuthorization } });
    expect(list.status).toBe(200);
    expect(list.body).not.toContain(marker);
  });

  it.each(['sessions', 'votes', 'media', 'notify'])('leaves the %s service healthy and ready', async (service) => {
    const target = targetFor(0);
    expect((await call(target, { method: 'GET', path: `/api/health/${service}` })).status).toBe(200);
    const ready = await call(target, { method: 'GET', path: `/api/ready/${service}` });
    expect(ready.status).toBe(200);
    expect(Readiness.parse(JSON.parse(ready.body)).status).toBe('ready');
  });

  it('leaves the polls it attacked intact: same logos, no votes from the hostile requests', async () => {
    const { view } = await tokenFor(targetFor(0), ctx.sessionId, ctx.cookie);
    expect(view.logos.map((logo) => logo.id)).toEqual(ctx.logoIds);
    expect(view.totalVotes).toBe(0);
  });
});

/**
 * The issue's text rows end to end: what the API refuses in a text field is stored nowhere, so nothing of it
 * reaches the admin area, the results or the store. Addresses 127.0.0.160 to 169 are this block's.
 */
describe('text the API refuses', () => {
  const at = (index: number) => targetOf(gatewayUrl, `127.0.0.${160 + index}`);
  const marker = `refused-${randomBytes(6).toString('hex')}`;
  const admin = () => ({ Authorization: ctx.adminAuthorization });
  const create = (index: number, parts: Parameters<typeof multipart>[0]) => {
    const { body, contentType } = multipart(parts);
    return call(at(index), { method: 'POST', path: '/api/sessions', headers: { 'Content-Type': contentType }, body });
  };
  const png = (filename: string) => ({ name: 'logos', filename, type: 'image/png', data: ctx.images.png });
  const expectRefused = (answer: Answer) => {
    expect({ status: answer.status, message: jsonMessage(answer) }).toEqual({ status: 400, message: expect.any(String) });
  };

  it('answers a NUL in the question with 400, not a 503 that clients retry', async () => {
    const answer = await create(1, [{ name: 'feedbackPrompt', data: `${marker} Which one?\u0000` }, png('a.png'), png('b.png')]);
    expectRefused(answer);
    expect(jsonMessage(answer)).toMatch(/^feedbackPrompt: The question must not contain control characters/);
  });

  it.each(['path', 'session_id', 'logo_id'])('answers a NUL in the analytics %s with 400, not 500', async (field) => {
    const event = { name: 'page_view', path: `/${marker}`, occurredAt: new Date().toISOString(), [field]: `${marker}\u0000` };
    const answer = await call(at(2), {
      method: 'POST',
      path: '/api/analytics/events',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ events: [event] }),
    });
    expectRefused(answer);
    expect(jsonMessage(answer)).toContain(`events.0.${field}: `);
  });

  it('refuses a right-to-left override in a question, a file name, a reason and a report note, and shows none of them anywhere', async () => {
    const target = at(3);
    const poll = await createPollVia(target, [ctx.images.png, ctx.images.jpeg]);
    const { cookie, token } = await tokenFor(target, poll.sessionId);
    const headers = {
      'Content-Type': 'application/json',
      Cookie: cookie,
      'X-CSRF-Token': token,
      'X-Client-Fingerprint': randomBytes(8).toString('hex'),
    };
    const logoId = poll.logos[0]!.id;
    const voted = await call(target, {
      method: 'POST',
      path: `/api/sessions/${poll.sessionId}/vote`,
      headers,
      body: JSON.stringify({ logoId }),
    });
    expect(voted.status).toBe(200);

    // "invoice\u202Egnp.exe" shows as "invoiceexe.png".
    const refused = [
      await create(4, [{ name: 'feedbackPrompt', data: `${marker} \u202E?eno hcihW` }, png('a.png'), png('b.png')]),
      await create(5, [png(`${marker}-invoice\u202Egnp.exe`), png('b.png')]),
      // Not an image either: without the name check it would be refused later and listed for the admin, name and all.
      await create(6, [
        { name: 'logos', filename: `${marker}-logo\u202Elmth.png`, type: 'image/png', data: '<html><script>alert(1)</script></html>' },
      ]),
      await create(8, [{ name: 'attributes', data: `${marker} \u202Ehtrowtsurt` }, png('a.png'), png('b.png')]),
      await call(target, {
        method: 'PUT',
        path: `/api/sessions/${poll.sessionId}/reason`,
        headers,
        body: JSON.stringify({ reason: `${marker} \u202Eti ekil I` }),
      }),
      await call(at(7), {
        method: 'POST',
        path: `/api/sessions/${poll.sessionId}/reports`,
        headers,
        body: JSON.stringify({ category: 'other', note: `${marker} \u202Emaps` }),
      }),
    ];
    for (const answer of refused) {
      expectRefused(answer);
      expect(jsonMessage(answer)).toContain('must not contain invisible text-direction controls');
    }

    const shown = await Promise.all([
      call(target, { method: 'GET', path: '/api/admin/polls?limit=100', headers: admin() }),
      call(target, { method: 'GET', path: '/api/admin/refusals?limit=100', headers: admin() }),
      call(target, { method: 'GET', path: '/api/admin/reports', headers: admin() }),
      call(target, { method: 'GET', path: `/api/sessions/${poll.sessionId}/reasons?logoId=${logoId}` }),
      call(target, { method: 'GET', path: `/api/sessions/${poll.sessionId}` }),
    ]);
    for (const answer of shown) {
      expect(answer.status).toBe(200);
      expect(answer.body).not.toContain(marker);
    }
  });
});
