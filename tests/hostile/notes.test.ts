/**
 * Hostile requests to the notes, 'What would you change?' (docs/reasons.md, "Notes"), through the gateway:
 * each gets a 4xx with a JSON message that reveals nothing internal, and the services stay ready.
 */
import { randomBytes } from 'node:crypto';
import { testStack } from '../support/stack-env';
import { validImages } from './support/fixtures';
import { INTERNAL_DETAILS, call, jsonMessage, targetOf, type HttpCall } from './support/http';
import { createPollVia, tokenFor } from './support/polls';

const { gatewayUrl } = testStack();
/** Addresses of their own, so the gateway's per-address rate limit counts these requests apart. */
const target = targetOf(gatewayUrl, '127.0.0.92');

let sessionId: string;
let logoId: string;
let headers: Record<string, string>;

beforeAll(async () => {
  const images = await validImages();
  const poll = await createPollVia(target, [images.png, images.jpeg]);
  sessionId = poll.sessionId;
  logoId = poll.logos[1]!.id;
  const { cookie, token } = await tokenFor(target, sessionId);
  headers = {
    Cookie: cookie,
    'X-CSRF-Token': token,
    'X-Client-Fingerprint': randomBytes(8).toString('hex'),
    'Content-Type': 'application/json',
  };
  const voted = await call(target, {
    method: 'POST',
    path: `/api/sessions/${sessionId}/vote`,
    headers,
    body: JSON.stringify({ logoId: poll.logos[0]!.id }),
  });
  expect(voted.status).toBe(200);
}, 60_000);

const put = (body: string, extra: Record<string, string> = {}): HttpCall => ({
  method: 'PUT',
  path: `/api/sessions/${sessionId}/note`,
  headers: { ...headers, ...extra },
  body,
});
const remove = (query: string, extra: Record<string, string> = {}): HttpCall => ({
  method: 'DELETE',
  path: `/api/sessions/${sessionId}/note?${query}`,
  headers: { ...headers, ...extra },
});
const get = (query: string): HttpCall => ({ method: 'GET', path: `/api/sessions/${sessionId}/notes?${query}` });

const cases: [string, () => HttpCall][] = [
  ['a body over 16 kB', () => put(JSON.stringify({ logoId, note: 'x'.repeat(20_000) }))],
  ['deeply nested JSON', () => put(`${'{"note":'.repeat(5_000)}"x"${'}'.repeat(5_000)}`)],
  ['a prototype-polluting body', () => put(`{"logoId":"${logoId}","__proto__":{"note":"polluted"},"constructor":{"prototype":{"x":1}}}`)],
  ['a note object', () => put(JSON.stringify({ logoId, note: { toString: 'boom' } }))],
  ['a logoId object (NoSQL operator)', () => put(JSON.stringify({ logoId: { $ne: 'x' }, note: 'hi' }))],
  ['a logo of another poll', () => put(JSON.stringify({ logoId: 'AAAAAAAAAAAAAAAA-logo0', note: 'hi' }))],
  ['a JSON string instead of an object', () => put('"just a note"')],
  ['null', () => put('null')],
  ['a bidi-override line break', () => put(JSON.stringify({ logoId, note: 'ok\u202e\u2029evil' }))],
  ['combining marks over the limit', () => put(JSON.stringify({ logoId, note: `a${'\u0301'.repeat(200)}` }))],
  ['a lone surrogate', () => put(`{"logoId":"${logoId}","note":"\\ud800x"}`)],
  ['an XML body', () => put('<note>hi</note>', { 'Content-Type': 'application/xml' })],
  ['a note without the anti-forgery token', () => put(JSON.stringify({ logoId, note: 'hi' }), { 'X-CSRF-Token': '' })],
  ['a removal without the anti-forgery token', () => remove(`logoId=${logoId}`, { 'X-CSRF-Token': '' })],
  ['a removal without a logo', () => remove('')],
  ['a removal with a NoSQL operator', () => remove('logoId[$ne]=x')],
  ['a removal without a fingerprint', () => remove(`logoId=${logoId}`, { 'X-Client-Fingerprint': '' })],
  ['my-notes without a fingerprint', () => ({ method: 'GET', path: `/api/sessions/${sessionId}/my-notes` })],
  ['repeated logoId parameters', () => get(`logoId=${logoId}&logoId=${logoId}`)],
  ['a cursor with a sign and exponent', () => get(`logoId=${logoId}&cursor=1e9`)],
  ['a NoSQL operator as logoId', () => get('logoId[$ne]=x')],
  ['a huge logoId', () => get(`logoId=${'a'.repeat(6_000)}`)],
  ['a percent-encoded NUL in logoId', () => get('logoId=%00')],
];

describe('hostile requests to notes', () => {
  it.each(cases)('%s → 4xx with a JSON message', async (_name, make) => {
    const answer = await call(target, make());
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    const message = jsonMessage(answer);
    expect(message).toBeDefined();
    expect(message).not.toMatch(INTERNAL_DETAILS);
  });

  it('still takes a proper note afterwards, removes it, and every service is ready', async () => {
    const answer = await call(target, put(JSON.stringify({ logoId, note: 'Still works' })));
    expect(answer.status).toBe(200);
    expect((await call(target, remove(`logoId=${logoId}`))).status).toBe(204);
    for (const service of ['sessions', 'votes']) {
      expect((await call(target, { method: 'GET', path: `/api/ready/${service}` })).status).toBe(200);
    }
  });
});
