/**
 * Security headers, cookies and CORS through the gateway: every page and every API answer (errors included)
 * carries the policy headers; logos are served so that nothing in them can run; the anti-forgery cookie is
 * HttpOnly and SameSite, and Secure when the browser came over TLS; no other origin is let in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testStack } from '../support/stack-env';
import { pngWithTrailingScript, validImages } from './support/fixtures';
import { call, callRaw, multipart, targetOf, type Answer } from './support/http';
import { createPollVia, tokenFor } from './support/polls';
import { randomFingerprint } from '../support/polls';

const { gatewayUrl, admin } = testStack();
const target = targetOf(gatewayUrl, '127.0.0.81');
const get = (path: string, headers: Record<string, string> = {}) => call(target, { method: 'GET', path, headers });
const adminAuthorization = `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString('base64')}`;

let sessionId: string;
let images: Awaited<ReturnType<typeof validImages>>;

beforeAll(async () => {
  images = await validImages();
  sessionId = (await createPollVia(target, [images.png, images.webp])).sessionId;
});

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

function expectCommonHeaders(answer: Answer): void {
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(answer.headers['permissions-policy']).toMatch(/camera=\(\).*geolocation=\(\).*microphone=\(\)/);
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['server']).toBe('nginx'); // no version
  expect(answer.headers['x-powered-by']).toBeUndefined();
}

describe('pages', () => {
  it.each(['/', `/vote/AAAAAAAAAAAAAAAA`, '/results/AAAAAAAAAAAAAAAA', '/terms', '/test/moderate', '/test/fingerprint', '/no/such/page'])(
    '%s: a CSP with no inline script, never framed, and the other policy headers',
    async (path) => {
      const answer = await get(path);
      expect(answer.status).toBe(200);
      expectCommonHeaders(answer);
      const csp = directives(answer.headers['content-security-policy'] ?? '');
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      // The shell's HTML has no inline script or style for the policy to allow.
      expect(answer.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
      expect(answer.body).not.toMatch(/\son[a-z]+=/i);
    },
  );

  it('the admin page, the remotes and the runtime configuration carry them too', async () => {
    for (const answer of [
      await get('/admin/polls', { Authorization: adminAuthorization }),
      await get('/remotes/create/mf-manifest.json'),
      await get('/remotes/vote/remoteEntry.js'),
      await get('/runtime-config.json'),
    ]) {
      expect(answer.status).toBe(200);
      expectCommonHeaders(answer);
      expect(directives(answer.headers['content-security-policy'] ?? '').get('frame-ancestors')).toEqual(["'none'"]);
    }
  });
});

describe('the API', () => {
  it('answers JSON that nothing may render or frame, on success and on every kind of error', async () => {
    const answers = [
      await get(`/api/sessions/${sessionId}`),
      await get('/api/sessions/ZZZZZZZZZZZZZZZZ'),
      await get('/api/no-such-thing'),
      await get('/api/admin/polls'),
      await call(target, { method: 'DELETE', path: `/api/sessions/${sessionId}` }),
      await callRaw(target, 'POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\nConnection: close\r\n\r\n', {
        endAfterWrite: true,
      }),
      await callRaw(target, 'GARBAGE\r\n\r\n'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 404, 401, 405, 413, 400]);
    for (const answer of answers) {
      expectCommonHeaders(answer);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(directives(answer.headers['content-security-policy'] ?? '').get('default-src')).toEqual(["'none'"]);
      expect(directives(answer.headers['content-security-policy'] ?? '').get('frame-ancestors')).toEqual(["'none'"]);
    }
  });

  it('keeps the admin API closed, and asks for the credentials the admin page uses', async () => {
    const anonymous = await call(target, { method: 'DELETE', path: `/api/admin/polls/${sessionId}` });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Basic realm="LogoVote admin"');
    expect(JSON.parse(anonymous.body)).toEqual({ message: 'Admin credentials required' });
    expect((await get(`/api/sessions/${sessionId}`)).status).toBe(200);
  });
});

describe('logo images', () => {
  const serveChecks = (answer: Answer, contentType: string) => {
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(contentType);
    expectCommonHeaders(answer);
    // The media service's own policy, alone: no script, no plugin, no load from anywhere, sandboxed.
    const csp = directives(answer.headers['content-security-policy'] ?? '');
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.has('sandbox')).toBe(true);
    expect(answer.headers['content-security-policy']).not.toContain(',');
  };

  it('serves a PNG with a script appended as nothing but a sandboxed PNG', async () => {
    const poll = await createPollVia(target, [pngWithTrailingScript(images.png), images.jpeg]);
    const answer = await get(`/api/logos/${poll.logos[0]!.filename}`);
    serveChecks(answer, 'image/png');
  });

  it('serves an SVG logo as a sandboxed image', async () => {
    const svg = readFileSync(join(__dirname, '..', 'fixtures', 'logo-wave.svg'));
    const { body, contentType } = multipart([
      { name: 'logos', filename: 'wave.svg', type: 'image/svg+xml', data: svg },
      { name: 'logos', filename: 'b.png', type: 'image/png', data: images.png },
    ]);
    const created = await call(target, { method: 'POST', path: '/api/sessions', headers: { 'Content-Type': contentType }, body });
    expect(created.status).toBe(201);
    const { logos } = JSON.parse(created.body) as { logos: { filename: string }[] };
    serveChecks(await get(`/api/logos/${logos[0]!.filename}`), 'image/svg+xml');
  });
});

describe('the anti-forgery cookie', () => {
  const cookieAttributes = (answer: Answer) =>
    (answer.headers['set-cookie'] ?? '')
      .split(';')
      .slice(1)
      .map((attribute) => attribute.trim().toLowerCase().split('=')[0]);

  it('is HttpOnly and SameSite=Lax, for the whole site, and not Secure over plain HTTP', async () => {
    const answer = await get(`/api/sessions/${sessionId}`);
    expect(answer.headers['set-cookie']).toMatch(/^lv_csrf=[A-Za-z0-9_-]{22,}; path=\//);
    expect(answer.headers['set-cookie']).toMatch(/samesite=lax/i);
    expect(cookieAttributes(answer)).toEqual(expect.arrayContaining(['httponly', 'samesite', 'path']));
    expect(cookieAttributes(answer)).not.toContain('secure');
    expect(answer.headers['strict-transport-security']).toBeUndefined();
  });

  it('is Secure, with HSTS, when a TLS-terminating proxy in front says the browser came over HTTPS', async () => {
    const answer = await get(`/api/sessions/${sessionId}`, { 'X-Forwarded-Proto': 'https' });
    expect(cookieAttributes(answer)).toEqual(expect.arrayContaining(['httponly', 'samesite', 'secure']));
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
    const upload = multipart([
      { name: 'logos', filename: 'a.png', type: 'image/png', data: images.png },
      { name: 'logos', filename: 'b.png', type: 'image/png', data: images.jpeg },
    ]);
    const created = await call(target, {
      method: 'POST',
      path: '/api/sessions',
      headers: { 'X-Forwarded-Proto': 'https', 'Content-Type': upload.contentType },
      body: upload.body,
    });
    expect(created.status).toBe(201);
    expect(cookieAttributes(created)).toContain('secure');
  });

  it('is not renewed over a valid one, so a page with several tabs keeps one token per poll', async () => {
    const first = await tokenFor(target, sessionId);
    const again = await get(`/api/sessions/${sessionId}`, { Cookie: first.cookie });
    expect(again.headers['set-cookie']).toBeUndefined();
  });
});

describe('the voter pass', () => {
  /** A first vote by a new browser; the voter pass its answer set (the only cookie a vote sets; its expiry date holds a comma, so no splitting). */
  async function firstVote(headers: Record<string, string> = {}): Promise<string> {
    const { cookie, token, view } = await tokenFor(target, sessionId);
    const answer = await call(target, {
      method: 'POST',
      path: `/api/sessions/${sessionId}/vote`,
      headers: {
        Cookie: cookie,
        'X-CSRF-Token': token,
        'X-Client-Fingerprint': randomFingerprint(),
        'Content-Type': 'application/json',
        ...headers,
      },
      body: JSON.stringify({ logoId: view.logos[0]!.id }),
    });
    expect(answer.status).toBe(200);
    return /^lv_voter_pass=.*/.exec(answer.headers['set-cookie'] ?? '')?.[0] ?? '';
  }
  const attributes = (cookie: string) =>
    cookie
      .split(';')
      .slice(1)
      .map((attribute) => attribute.trim().toLowerCase().split('=')[0]);

  it("is HttpOnly and SameSite=Lax, sent only to its poll's API, one per voter, and not Secure over plain HTTP", async () => {
    const [first, second] = [await firstVote(), await firstVote()];
    expect(first).toMatch(new RegExp(`^lv_voter_pass=[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{43}; path=/api/sessions/${sessionId}; expires=`));
    expect(first).toMatch(/samesite=lax/i);
    expect(attributes(first)).toEqual(expect.arrayContaining(['httponly', 'samesite', 'path', 'expires']));
    expect(attributes(first)).not.toContain('secure');
    expect(first.split(';')[0]).not.toBe(second.split(';')[0]);
  });

  it('is Secure when a TLS-terminating proxy in front says the browser came over HTTPS', async () => {
    expect(attributes(await firstVote({ 'X-Forwarded-Proto': 'https' }))).toEqual(
      expect.arrayContaining(['httponly', 'samesite', 'secure']),
    );
  });

  it('is not set by a visit: my-vote of a browser without a vote sets no cookie', async () => {
    const answer = await get(`/api/sessions/${sessionId}/my-vote`, { 'X-Client-Fingerprint': randomFingerprint() });
    expect(answer.status).toBe(200);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });
});

describe('CORS', () => {
  const evil = 'https://evil.example';

  it('gives another origin nothing to read a response with', async () => {
    for (const path of [`/api/sessions/${sessionId}`, '/api/health/sessions', '/test/fingerprint/votes', '/runtime-config.json']) {
      const answer = await get(path, { Origin: evil });
      expect(answer.status).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it.each([
    [`/api/sessions/{id}/vote`, 'POST', 'content-type, x-csrf-token, x-client-fingerprint'],
    [`/api/sessions/{id}/notify`, 'POST', 'content-type, x-csrf-token'],
    [`/api/sessions/{id}/plan`, 'PUT', 'content-type, x-csrf-token'],
    [`/api/admin/polls/{id}`, 'DELETE', 'authorization'],
    ['/api/sessions', 'POST', 'content-type'],
  ])('grants no preflight for %s (%s) from another origin', async (path, method, headers) => {
    const answer = await call(target, {
      method: 'OPTIONS',
      path: path.replace('{id}', sessionId),
      headers: { Origin: evil, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers },
    });
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
    expect(answer.headers['access-control-allow-methods']).toBeUndefined();
    expect(answer.headers['access-control-allow-headers']).toBeUndefined();
    expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe("the poll the gateway writes into its page's HTML", () => {
  const hostileQuestion =
    '</template><script>alert(1)</script><img src=x onerror=alert(2)> & "quoted" <!--# echo var="runtime_config_json" -->';

  it.each(['vote', 'results'])('is HTML-escaped on /%s/{id}, so no part of a question can end its <template> or run', async (route) => {
    const poll = await createPollVia(target, [images.png, images.webp], hostileQuestion);
    const page = await get(`/${route}/${poll.sessionId}`);
    expect(page.status).toBe(200);
    const embedded = /<template id="logovote-poll">([^<]*)<\/template>/.exec(page.body)?.[1];
    expect(embedded).toBeDefined();
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).not.toContain('<img src=x');
    const unescaped = embedded!.replace(/&(lt|gt|quot|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&' })[name]!);
    expect(JSON.parse(unescaped)).toMatchObject({ sessionId: poll.sessionId, feedbackPrompt: hostileQuestion });
  });

  it('is empty for a poll that does not exist, and for a path that is not a poll id', async () => {
    for (const path of ['/vote/AAAAAAAAAAAAAAAA', '/results/AAAAAAAAAAAAAAAA', '/vote/a%22b%3Cc', `/vote/${'A'.repeat(65)}`]) {
      const page = await get(path);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<div id="root">');
      expect(/<template id="logovote-poll">([^<]*)<\/template>/.exec(page.body)?.[1]?.trim() ?? '').toBe('');
    }
  });

  it("carries the runtime configuration and a preload of the route's remote manifest", async () => {
    const page = await get(`/vote/${sessionId}`);
    const config = /<template id="logovote-runtime-config">([^<]*)<\/template>/.exec(page.body)?.[1]?.replace(/&quot;/g, '"');
    expect(JSON.parse(config ?? 'null')).toEqual(JSON.parse((await get('/runtime-config.json')).body));
    expect(page.body).toMatch(/<link rel="preload" href="[^"]*\/remotes\/vote\/mf-manifest\.json" as="fetch" crossorigin="anonymous" \/>/);
  });
});
