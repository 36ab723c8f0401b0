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
import { INTERNAL_DETAILS, call, callRaw, jsonMessage, targetOf, type Answer, type HttpCall } from './support/http';
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
    expect(new Set(CORPUS.map((hostile) => hostile.endpoint)).size).toBe(12);
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
