import { readdirSync, readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import { adminAuthorization, createPollThroughApi, deleteAdminPoll, listAdminPolls } from '../support/admin';
import { testStack } from '../support/stack-env';
import { useBrowser } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const ROOT = join(__dirname, '..', '..');
const ADMIN_DIST = join(ROOT, 'mfes', 'admin', 'dist');

/** Every file under a folder, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

type RawResponse = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/** One request with the path put on the wire exactly as written (fetch would resolve dots and escapes first). */
function rawRequest(path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(gatewayUrl);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const WRONG_CREDENTIALS = { Authorization: `Basic ${Buffer.from('admin:not-the-password').toString('base64')}` };

/** Stretches of a file that any response carrying (part of) it would contain: 48 bytes every 2 KB, all of a small file. */
function samplesOf(content: Buffer): Buffer[] {
  if (content.length <= 48) return [content];
  const samples: Buffer[] = [];
  for (let offset = 0; offset + 48 <= content.length; offset += 2048) samples.push(content.subarray(offset, offset + 48));
  samples.push(content.subarray(content.length - 48));
  return samples;
}

function expectNoneOf(body: Buffer, content: Buffer, what: string): void {
  const leaked = samplesOf(content).filter((sample) => body.includes(sample));
  if (leaked.length > 0)
    throw new Error(`${what}: the response carries ${leaked.length} piece(s) of the file, e.g. ${leaked[0]!.toString('utf8')}`);
}

function expectChallenge(response: RawResponse, what: string): void {
  if (response.status !== 401) throw new Error(`${what}: expected 401, got ${response.status}`);
  expect(response.headers['www-authenticate']).toBe('Basic realm="LogoVote admin"');
}

const adminFiles = filesUnder(ADMIN_DIST);

describe("the admin remote's code without the admin's credentials", () => {
  it('is built (the checks below have files to ask for)', () => {
    expect(adminFiles).toEqual(expect.arrayContaining(['remoteEntry.js', 'mf-manifest.json']));
    expect(adminFiles.some((file) => file.startsWith('__federation_expose_AdminPollsPage') && file.endsWith('.js'))).toBe(true);
  });

  it.each(adminFiles)('/remotes/admin/%s answers 401 and not one byte of the file', async (file) => {
    const content = readFileSync(join(ADMIN_DIST, file));
    const path = `/remotes/admin/${file}`;
    for (const [what, options] of [
      ['GET without credentials', {}],
      ['GET with wrong credentials', { headers: WRONG_CREDENTIALS }],
      ['HEAD without credentials', { method: 'HEAD' }],
      ['GET for a byte range', { headers: { Range: 'bytes=0-99' } }],
    ] as const) {
      const response = await rawRequest(path, options);
      expectChallenge(response, `${what} ${path}`);
      expectNoneOf(response.body, content, `${what} ${path}`);
    }
    // With them, the same path serves exactly that file: the refusals above were about the right files.
    const allowed = await rawRequest(path, { headers: adminAuthorization() });
    expect(allowed.status).toBe(200);
    expect(allowed.body.equals(content)).toBe(true);
  });

  it('keeps the admin code out of shared caches: no answer to the admin allows them to store it', async () => {
    // A shared cache (a CDN in front of the gateway) may keep, and hand out to anyone, an answer to a request with
    // credentials only when that answer says public, s-maxage or must-revalidate (RFC 9111, section 3.5).
    const publicAnswers: string[] = [];
    for (const file of adminFiles) {
      const { headers } = await rawRequest(`/remotes/admin/${file}`, { method: 'HEAD', headers: adminAuthorization() });
      const cacheControl = String(headers['cache-control'] ?? '');
      if (/\b(public|s-maxage|must-revalidate)\b/.test(cacheControl)) publicAnswers.push(`${file}: ${cacheControl}`);
    }
    expect(publicAnswers).toEqual([]);
  });

  it.each([
    '/remotes//admin/remoteEntry.js',
    '/remotes/./admin/remoteEntry.js',
    '/remotes/admin/../admin/remoteEntry.js',
    '/remotes/create/../admin/remoteEntry.js',
    '/remotes/create/%2e%2e/admin/remoteEntry.js',
    '/remotes/create/..%2fadmin%2fremoteEntry.js',
    '/remotes/%61dmin/remoteEntry.js',
    '/remotes/admin%2fremoteEntry.js',
    '/remotes/vote/%2e%2e%2fadmin/remoteEntry.js',
  ])('answers %s, another spelling of an admin file, with 401 (or 400 for a path traversal probe) and none of it', async (path) => {
    const response = await rawRequest(path);
    if (response.status !== 400) expectChallenge(response, path);
    expectNoneOf(response.body, readFileSync(join(ADMIN_DIST, 'remoteEntry.js')), path);
  });

  it.each(['/REMOTES/ADMIN/remoteEntry.js', '/Remotes/admin/remoteEntry.js', '/remotes/admin', '/remoteEntry.js', '/admin/remoteEntry.js'])(
    'serves nothing of the admin remote at %s (another place, or the shell)',
    async (path) => {
      const response = await rawRequest(path);
      expectNoneOf(response.body, readFileSync(join(ADMIN_DIST, 'remoteEntry.js')), path);
      for (const file of adminFiles.filter((name) => name.startsWith('__federation_expose_'))) {
        expectNoneOf(response.body, readFileSync(join(ADMIN_DIST, file)), `${path} (${file})`);
      }
    },
  );
});

describe('the admin page without the credentials', () => {
  it.each(['/admin/polls', '/admin/polls/', '/admin/polls?x=1', '/admin', '/admin/', '/admin/anything', '//admin/polls', '/%61dmin/polls'])(
    '%s answers 401',
    async (path) => {
      expectChallenge(await rawRequest(path), path);
      expectChallenge(await rawRequest(path, { headers: WRONG_CREDENTIALS }), path);
    },
  );

  it('is a 401 in a browser, which then loads none of the admin code', async () => {
    const page = await browser.newPage('desktop');
    const requested: string[] = [];
    page.on('request', (req) => requested.push(new URL(req.url()).pathname));
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/admin/polls');
    // Headless Chromium, asked for credentials it does not have, ends the navigation with this error.
    await page.goto(`${gatewayUrl}/admin/polls`).catch((error: unknown) => {
      if (!String(error).includes('ERR_INVALID_AUTH_CREDENTIALS')) throw error;
    });
    expect((await answered).status()).toBe(401);
    expect(requested.filter((path) => path.startsWith('/remotes/') || path.startsWith('/api/'))).toEqual([]);
    await expect(page.locator('body').innerText()).resolves.not.toContain('Poll Management');
  });

  it("is never asked for by the public pages, so no visitor meets the admin's password prompt", async () => {
    const page: Page = await browser.newPage('desktop');
    const admin: string[] = [];
    const refused: string[] = [];
    page.on('request', (req) => {
      const { pathname } = new URL(req.url());
      if (pathname.startsWith('/remotes/admin') || pathname.startsWith('/api/admin') || pathname.startsWith('/admin')) admin.push(pathname);
    });
    page.on('response', (res) => {
      if (res.status() === 401) refused.push(res.url());
    });
    // Each page is left once the network is idle: its remote (or fallback) and everything it asks for have loaded.
    for (const path of ['/', '/vote/AAAAAAAAAAAAAAAA', '/results/AAAAAAAAAAAAAAAA', '/terms', '/test/moderate', '/no/such/page']) {
      await page.goto(`${gatewayUrl}${path}`, { waitUntil: 'networkidle' });
      await page.waitForSelector('[data-testid="shell"]');
    }
    expect(admin).toEqual([]);
    expect(refused).toEqual([]);
  });
});

describe('the admin API without the credentials', () => {
  let pollId: string;
  beforeAll(async () => {
    pollId = (await createPollThroughApi(['logo-ring.png', 'logo-wave.svg'], 'Only the admin may delete me')).sessionId;
  });
  afterAll(() => deleteAdminPoll(pollId));

  it.each([
    '/api/admin/polls',
    '/api/admin/polls/',
    '/api//admin/polls',
    '/api/admin/../admin/polls',
    '/api/sessions/../admin/polls',
    '/api/sessions/%2e%2e/admin/polls',
    '/api/%61dmin/polls',
    '/api/admin%2fpolls',
  ])('GET %s answers 401 (or 400 for a path traversal probe) without the list', async (path) => {
    for (const headers of [{}, WRONG_CREDENTIALS]) {
      const response = await rawRequest(path, { headers });
      if (response.status !== 400) expectChallenge(response, path);
      expect(response.body.toString('utf8')).not.toContain(pollId);
    }
  });

  it('refuses a DELETE (401, or 400 for a path traversal probe) and the poll stays', async () => {
    for (const path of [
      `/api/admin/polls/${pollId}`,
      `/api/sessions/../admin/polls/${pollId}`,
      `/api/sessions/${pollId}/../../admin/polls/${pollId}`,
    ]) {
      for (const headers of [{}, WRONG_CREDENTIALS]) {
        const response = await rawRequest(path, { method: 'DELETE', headers });
        if (response.status !== 400) expectChallenge(response, `DELETE ${path}`);
      }
    }
    await expect(listAdminPolls().then((polls) => polls.some((poll) => poll.pollId === pollId))).resolves.toBe(true);
  });

  it('never reaches the admin routes under another case or through the public session routes', async () => {
    for (const path of [
      '/api/ADMIN/polls',
      '/API/admin/polls',
      `/api/sessions/${pollId}/..%3B/..%3B/admin/polls`,
      '/api/sessions/..;/admin/polls',
    ]) {
      const response = await rawRequest(path);
      expect(response.body.toString('utf8')).not.toContain(pollId);
    }
  });
});

describe("the other front ends' builds", () => {
  // Texts only the admin screen has: a build that shows them carries the screen's code.
  const ADMIN_ONLY = [
    'Choose a poll from the sidebar to view its details',
    'Failed to delete poll. Please try again.',
    'All votes and logos associated with this poll will be permanently deleted.',
    'No email provided',
    'Loading polls...',
  ];

  it('the admin remote carries the screen (the texts looked for below are the right ones)', () => {
    const code = adminFiles.filter((file) => file.endsWith('.js')).map((file) => readFileSync(join(ADMIN_DIST, file), 'utf8'));
    for (const text of ADMIN_ONLY) expect(code.some((content) => content.includes(text))).toBe(true);
  });

  it.each(['shells/web', 'mfes/create', 'mfes/vote', 'mfes/results'])(
    '%s holds none of the admin screen: the shell loads it from the remote only',
    (folder) => {
      const dist = join(ROOT, folder, 'dist');
      for (const file of filesUnder(dist)) {
        const content = readFileSync(join(dist, file), 'utf8');
        for (const text of ADMIN_ONLY) if (content.includes(text)) throw new Error(`${folder}/dist/${file} contains "${text}"`);
      }
    },
  );
});
