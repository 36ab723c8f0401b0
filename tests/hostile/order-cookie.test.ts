/**
 * The fair-order cookie (docs/fair-order.md): set by the gateway on pages only, while missing or malformed;
 * readable by the page (it orders the logos), SameSite=Lax, limited to the voting pages, Secure over TLS.
 * A forged one only changes the order its own browser sees.
 */
import { testStack } from '../support/stack-env';
import { validImages } from './support/fixtures';
import { call, targetOf, type Answer } from './support/http';
import { createPollVia } from './support/polls';

const { gatewayUrl } = testStack();
const target = targetOf(gatewayUrl, '127.0.0.82');
const get = (path: string, headers: Record<string, string> = {}) => call(target, { method: 'GET', path, headers });
const orderCookie = (answer: Answer) => /^lv_order=.*/.exec(answer.headers['set-cookie'] ?? '')?.[0] ?? '';
const attributes = (cookie: string) =>
  cookie
    .split(';')
    .slice(1)
    .map((attribute) => attribute.trim().toLowerCase());

let sessionId: string;
beforeAll(async () => {
  const images = await validImages();
  sessionId = (await createPollVia(target, [images.png, images.webp])).sessionId;
});

describe('the fair-order cookie', () => {
  it.each(['/', '/terms', `/results/${'A'.repeat(16)}`])(
    'is set with a page (%s): random, for the voting pages, readable, SameSite=Lax',
    async (path) => {
      const [first, second] = [orderCookie(await get(path)), orderCookie(await get(path))];
      expect(first).toMatch(/^lv_order=[0-9a-f]{32}; /);
      expect(attributes(first)).toEqual(expect.arrayContaining(['path=/vote', 'samesite=lax', 'max-age=31536000']));
      expect(attributes(first)).not.toContain('httponly');
      expect(attributes(first)).not.toContain('secure');
      expect(first.split(';')[0]).not.toBe(second.split(';')[0]);
    },
  );

  it('is Secure when a TLS-terminating proxy in front says the browser came over HTTPS', async () => {
    expect(attributes(orderCookie(await get('/', { 'X-Forwarded-Proto': 'https' })))).toContain('secure');
  });

  it('is kept when the browser has a valid one, and replaced when it is malformed', async () => {
    expect(orderCookie(await get(`/vote/${sessionId}`, { Cookie: `lv_order=${'0'.repeat(32)}` }))).toBe('');
    for (const forged of ['short', 'Z'.repeat(32), `${'0'.repeat(32)}x`, '"<script>"']) {
      expect(orderCookie(await get(`/vote/${sessionId}`, { Cookie: `lv_order=${forged}` }))).toMatch(/^lv_order=[0-9a-f]{32}; /);
    }
  });

  it.each([
    ['the API', () => `/api/sessions/${sessionId}`],
    ['a logo', () => '/api/logos/none.png'],
    ['the runtime configuration', () => '/runtime-config.json'],
    ["the shell's files", () => '/favicon.svg'],
    ["a remote's files", () => '/remotes/vote/mf-manifest.json'],
  ])('is not set by %s', async (_, path) => {
    expect(orderCookie(await get(path()))).toBe('');
  });

  it('gives the page a poll, whatever a forged cookie holds', async () => {
    const answer = await get(`/vote/${sessionId}`, { Cookie: 'lv_order=../../etc/passwd' });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain(`logovote-poll`);
    expect(answer.body).toContain(sessionId);
  });
});
