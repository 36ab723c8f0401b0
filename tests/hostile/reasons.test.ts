/**
 * Hostile requests to the reasons and the export (docs/reasons.md and docs/export.md), through the
 * gateway: each gets a 4xx with a JSON message that reveals nothing internal, and the services stay ready.
 */
import { randomBytes } from 'node:crypto';
import { testStack } from '../support/stack-env';
import { validImages } from './support/fixtures';
import { INTERNAL_DETAILS, call, callRaw, jsonMessage, targetOf, type HttpCall } from './support/http';
import { createPollVia, tokenFor } from './support/polls';

const { gatewayUrl } = testStack();
/** Addresses of their own, so the gateway's per-address rate limit counts these requests apart. */
const target = targetOf(gatewayUrl, '127.0.0.91');

let sessionId: string;
let logoId: string;
let headers: Record<string, string>;

beforeAll(async () => {
  const images = await validImages();
  const poll = await createPollVia(target, [images.png, images.jpeg]);
  sessionId = poll.sessionId;
  logoId = poll.logos[0]!.id;
  const { cookie, token } = await tokenFor(target, sessionId);
  headers = {
    Cookie: cookie,
    'X-CSRF-Token': token,
    'X-Client-Fingerprint': randomBytes(8).toString('hex'),
    'Content-Type': 'application/json',
  };
  const voted = await call(target, { method: 'POST', path: `/api/sessions/${sessionId}/vote`, headers, body: JSON.stringify({ logoId }) });
  expect(voted.status).toBe(200);
}, 60_000);

const put = (body: string, extra: Record<string, string> = {}): HttpCall => ({
  method: 'PUT',
  path: `/api/sessions/${sessionId}/reason`,
  headers: { ...headers, ...extra },
  body,
});
const get = (query: string): HttpCall => ({ method: 'GET', path: `/api/sessions/${sessionId}/reasons?${query}` });

const cases: [string, () => HttpCall][] = [
  ['a body over 16 kB', () => put(JSON.stringify({ reason: 'x'.repeat(20_000) }))],
  ['deeply nested JSON', () => put(`${'{"reason":'.repeat(5_000)}"x"${'}'.repeat(5_000)}`)],
  ['a prototype-polluting body', () => put('{"__proto__":{"reason":"polluted"},"constructor":{"prototype":{"x":1}}}')],
  ['a reason object', () => put(JSON.stringify({ reason: { toString: 'boom' } }))],
  ['a JSON string instead of an object', () => put('"just a reason"')],
  ['null', () => put('null')],
  ['a bidi-override line break', () => put(JSON.stringify({ reason: 'ok\u202e\u2029evil' }))],
  ['140 characters of combining marks over the limit', () => put(JSON.stringify({ reason: `a${'\u0301'.repeat(200)}` }))],
  ['an XML body', () => put('<reason>hi</reason>', { 'Content-Type': 'application/xml' })],
  ['repeated logoId parameters', () => get(`logoId=${logoId}&logoId=${logoId}`)],
  ['a cursor with a sign and exponent', () => get(`logoId=${logoId}&cursor=1e9`)],
  ['a NoSQL operator as logoId', () => get('logoId[$ne]=x')],
  ['a huge logoId', () => get(`logoId=${'a'.repeat(6_000)}`)],
  ['a percent-encoded NUL in logoId', () => get('logoId=%00')],
];

describe('hostile requests to reasons and the export', () => {
  it.each(cases)('%s → 4xx with a JSON message', async (_name, make) => {
    const answer = await call(target, make());
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    const message = jsonMessage(answer);
    expect(message).toBeDefined();
    expect(message).not.toMatch(INTERNAL_DETAILS);
  });

  it('answers a path-traversal or unknown export with a JSON 404, never a file', async () => {
    for (const path of [
      `/api/sessions/${sessionId}/results.csv/../../admin/polls`,
      `/api/sessions/..%2F..%2Fetc%2Fpasswd/results.csv`,
      '/api/sessions/AAAAAAAAAAAAAAAA/results.csv',
    ]) {
      const answer = await call(target, { method: 'GET', path });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(jsonMessage(answer)).toBeDefined();
    }
  });

  it('answers a request line that smuggles a second request with a 4xx', async () => {
    const answer = await callRaw(
      target,
      `GET /api/sessions/${sessionId}/reasons?logoId=${logoId} HTTP/1.1\r\nHost: logovote\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      { timeoutMs: 5_000 },
    );
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it('still takes a proper reason afterwards, and every service is ready', async () => {
    const answer = await call(target, put(JSON.stringify({ reason: 'Still works' })));
    expect(answer.status).toBe(200);
    for (const service of ['sessions', 'votes']) {
      expect((await call(target, { method: 'GET', path: `/api/ready/${service}` })).status).toBe(200);
    }
  });
});
