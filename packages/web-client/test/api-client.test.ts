// The client under test is browser code: type-check it against the DOM library wherever this test is compiled.
/// <reference lib="dom" />

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { VoteChallenge } from '@logovote/contracts';

import { createApiClient, MESSAGES } from '../src/api-client';
import { ApiError } from '../src/api-error';
import type { postMultipart } from '../src/upload';

type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
type Reply = { status: number; body?: string; json?: unknown };

/** A real HTTP server standing in for the gateway: each test says how it answers. */
let server: Server;
let baseUrl: string;
let seen: Seen[];
let answer: (request: Seen) => Reply;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('latin1'),
      };
      seen.push(request);
      const reply = answer(request);
      res.statusCode = reply.status;
      if (reply.json !== undefined) res.setHeader('Content-Type', 'application/json');
      res.end(reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? ''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const SESSION = 'AAAAAAAAAAAAAAAA';
const session = (csrfToken?: string) => ({ sessionId: SESSION, logos: [], totalVotes: 0, ...(csrfToken ? { csrfToken } : {}) });

let credentials: (RequestCredentials | undefined)[];
let warnings: string[];

/** Multipart upload through fetch (node has no XMLHttpRequest); the client code under test is the same. */
const fetchUpload: typeof postMultipart = async (url, form) => {
  const response = await fetch(url, { method: 'POST', body: form, credentials: 'include' });
  credentials.push('include');
  return { ok: response.ok, status: response.status, statusText: response.statusText, bodyText: await response.text() };
};

function client(solveVoteChallenge?: (challenge: VoteChallenge) => Promise<string>) {
  return createApiClient({
    ...(solveVoteChallenge ? { solveVoteChallenge } : {}),
    baseUrl,
    fetch: (input, init) => {
      credentials.push(init?.credentials);
      return fetch(input, init);
    },
    postMultipart: fetchUpload,
    warn: (message) => warnings.push(message),
  });
}

beforeEach(() => {
  seen = [];
  credentials = [];
  warnings = [];
  answer = () => ({ status: 200, json: {} });
});

describe('shared request behaviour (spec section 7)', () => {
  it('sends credentials on every call', async () => {
    answer = ({ method }) => ({ status: 200, json: method === 'GET' ? session('tok') : {} });
    const api = client();
    await api.getSession(SESSION);
    await api.setPaymentPlan(SESSION, 'paid');
    await api.listTestVotes();
    await api.createSession({ logos: [new File(['<svg/>'], 'a.svg', { type: 'image/svg+xml' })] });
    expect(credentials).toEqual(['include', 'include', 'include', 'include']);
  });

  it("turns a non-OK response into an error '{status}: {body text}'", async () => {
    answer = () => ({ status: 404, json: { message: 'Poll not found' } });
    const error = await client()
      .request('/api/sessions/AAAAAAAAAAAAAAAA')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('404: {"message":"Poll not found"}');
    expect((error as ApiError).serverMessage).toBe('Poll not found');
  });

  it("uses the status text when the body is empty: '{status}: {status text}'", async () => {
    answer = () => ({ status: 503 });
    await expect(client().request('/test/fingerprint/votes')).rejects.toMatchObject({ message: '503: Service Unavailable' });
  });

  it('treats a 401 as an error by default, or yields null when asked', async () => {
    answer = () => ({ status: 401, body: 'Unauthorized' });
    await expect(client().request('/api/admin/polls')).rejects.toThrow('401: Unauthorized');
    await expect(client().request('/api/admin/polls', { nullOn401: true })).resolves.toBeNull();
  });

  it('sends the cached token of the session in X-CSRF-Token on non-GET calls under /api/sessions/{id}', async () => {
    answer = ({ method }) => ({ status: 200, json: method === 'GET' ? session('token-1') : { sessionId: SESSION, paymentPlan: 'bulk' } });
    const api = client();
    await api.getSession(SESSION);
    await api.setPaymentPlan(SESSION, 'bulk');
    expect(seen.map((s) => [s.method, s.url, s.headers['x-csrf-token']])).toEqual([
      ['GET', `/api/sessions/${SESSION}`, undefined],
      ['PUT', `/api/sessions/${SESSION}/plan`, 'token-1'],
    ]);
    expect(JSON.parse(seen[1]!.body)).toEqual({ paymentPlan: 'bulk' });
    expect(seen[1]!.headers['content-type']).toBe('application/json');
  });

  it('fetches the session first when no token is cached', async () => {
    answer = ({ method }) => ({ status: 200, json: method === 'GET' ? session('fresh') : {} });
    await client().request(`/api/sessions/${SESSION}/plan`, { method: 'PUT', json: { paymentPlan: 'free' } });
    expect(seen.map((s) => [s.method, s.url, s.headers['x-csrf-token']])).toEqual([
      ['GET', `/api/sessions/${SESSION}`, undefined],
      ['PUT', `/api/sessions/${SESSION}/plan`, 'fresh'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('logs a warning and sends without a token when none can be had', async () => {
    answer = ({ method }) =>
      method === 'GET' ? { status: 404, json: { message: 'Poll not found' } } : { status: 403, json: { message: 'no' } };
    await expect(client().request(`/api/sessions/${SESSION}/plan`, { method: 'PUT', json: {} })).rejects.toThrow('403: {"message":"no"}');
    expect(seen.map((s) => [s.method, s.headers['x-csrf-token']])).toEqual([
      ['GET', undefined],
      ['PUT', undefined],
    ]);
    expect(warnings).toEqual([`[LogoVote] no anti-forgery token for session ${SESSION}: sending the request without one`]);
  });

  it('never sends a token on GET calls or on calls outside /api/sessions/{id}', async () => {
    const api = client();
    answer = () => ({ status: 201, json: { sessionId: 'BBBBBBBBBBBBBBBB' } });
    await api.createTestSession();
    answer = () => ({ status: 200, json: { hasVoted: false, logoId: null } });
    await api.getMyVote(SESSION, '0123456789abcdef');
    expect(seen.map((s) => [s.method, s.url, s.headers['x-csrf-token']])).toEqual([
      ['POST', '/test/fingerprint/session', undefined],
      ['GET', `/api/sessions/${SESSION}/my-vote`, undefined],
    ]);
    expect(seen[1]!.headers['x-client-fingerprint']).toBe('0123456789abcdef');
  });
});

describe('session creation', () => {
  const logo = (name: string) => new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], name, { type: 'image/svg+xml' });
  const created = { ...session('created-token'), votingUrl: 'http://x/vote/A', resultsUrl: 'http://x/results/A' };

  it('posts logos as a repeated field and feedbackPrompt trimmed, then caches the returned token', async () => {
    answer = ({ method }) =>
      method === 'POST' ? { status: 201, json: created } : { status: 200, json: { sessionId: SESSION, paymentPlan: 'free' } };
    const api = client();
    await expect(api.createSession({ logos: [logo('a.svg'), logo('b.svg')], feedbackPrompt: '  Which one?  ' })).resolves.toEqual(created);
    const [post] = seen;
    expect(post!.url).toBe('/api/sessions');
    expect(post!.headers['x-csrf-token']).toBeUndefined();
    expect(post!.body.match(/name="logos"; filename="(a|b)\.svg"/g)).toHaveLength(2);
    expect(post!.body).toMatch(/name="feedbackPrompt"\r\n\r\nWhich one\?\r\n/);

    await api.setPaymentPlan(SESSION, 'free');
    expect(seen.map((s) => [s.method, s.headers['x-csrf-token']])).toEqual([
      ['POST', undefined],
      ['PUT', 'created-token'],
    ]);
  });

  it('sends one logoNames field per name, in the order given, and none without names', async () => {
    answer = () => ({ status: 201, json: created });
    await client().createSession({ logos: [logo('a.svg'), logo('b.svg')], logoNames: ['Wordmark', ''] });
    expect(seen[0]!.body.match(/name="logoNames"\r\n\r\n[^\r]*\r\n/g)).toEqual([
      'name="logoNames"\r\n\r\nWordmark\r\n',
      'name="logoNames"\r\n\r\n\r\n',
    ]);
    await client().createSession({ logos: [logo('a.svg')] });
    expect(seen[1]!.body).not.toContain('logoNames');
  });

  it('leaves feedbackPrompt out when it is blank', async () => {
    answer = () => ({ status: 201, json: created });
    await client().createSession({ logos: [logo('a.svg')], feedbackPrompt: '   ' });
    expect(seen[0]!.body).not.toContain('feedbackPrompt');
  });

  it("fails with the server's message, or 'Failed to create voting session'", async () => {
    answer = () => ({ status: 400, json: { message: 'Unsupported file type: a.gif' } });
    await expect(client().createSession({ logos: [logo('a.svg')] })).rejects.toMatchObject({ message: 'Unsupported file type: a.gif' });
    answer = () => ({ status: 500, body: '' });
    await expect(client().createSession({ logos: [logo('a.svg')] })).rejects.toMatchObject({ message: MESSAGES.createFailed });
  });
});

describe('notify, my-vote and vote', () => {
  it('refreshes the token before notify, sends the trimmed e-mail, and reports the server message on failure', async () => {
    answer = ({ method }) =>
      method === 'GET' ? { status: 200, json: session('t2') } : { status: 200, json: { message: 'sent', email: 'a@b.c' } };
    const api = client();
    await api.sendLinksByEmail(SESSION, '  a@b.c ');
    expect(seen.map((s) => [s.method, s.url, s.headers['x-csrf-token']])).toEqual([
      ['GET', `/api/sessions/${SESSION}`, undefined],
      ['POST', `/api/sessions/${SESSION}/notify`, 't2'],
    ]);
    expect(JSON.parse(seen[1]!.body)).toEqual({ email: 'a@b.c' });

    answer = ({ method }) => (method === 'GET' ? { status: 200, json: session('t3') } : { status: 502, json: { message: 'SMTP down' } });
    await expect(api.sendLinksByEmail(SESSION, 'a@b.c')).rejects.toMatchObject({ message: 'SMTP down' });
    answer = ({ method }) => (method === 'GET' ? { status: 200, json: session('t3') } : { status: 502, body: '' });
    await expect(api.sendLinksByEmail(SESSION, 'a@b.c')).rejects.toMatchObject({ message: MESSAGES.notifyFailed });
  });

  it("reports 'Failed to fetch session data' when the token refresh fails", async () => {
    answer = () => ({ status: 404, json: { message: 'Poll not found' } });
    await expect(client().sendLinksByEmail(SESSION, 'a@b.c')).rejects.toMatchObject({ message: MESSAGES.tokenRefreshFailed });
  });

  it('treats a failing my-vote lookup as not voted', async () => {
    answer = () => ({ status: 500, body: 'boom' });
    await expect(client().getMyVote(SESSION, '0123456789abcdef')).resolves.toEqual({ hasVoted: false, logoId: null });
  });

  it('passes on the reason given for the current vote, and nothing of one when not voted', async () => {
    answer = () => ({ status: 200, json: { hasVoted: true, logoId: 'L2', reason: 'Clean lines' } });
    await expect(client().getMyVote(SESSION, '0123456789abcdef')).resolves.toEqual({ hasVoted: true, logoId: 'L2', reason: 'Clean lines' });
    answer = () => ({ status: 200, json: { hasVoted: false, logoId: null, reason: 'stale' } });
    await expect(client().getMyVote(SESSION, '0123456789abcdef')).resolves.toEqual({ hasVoted: false, logoId: null });
  });

  it("fails a vote with 'Voting failed with status: {status}'", async () => {
    answer = ({ method }) => (method === 'GET' ? { status: 200, json: session('t4') } : { status: 409, json: { message: 'x' } });
    await expect(client().submitVote(SESSION, 'logo-1', '0123456789abcdef')).rejects.toMatchObject({
      message: 'Voting failed with status: 409',
    });
    expect(seen[1]!.headers['x-csrf-token']).toBe('t4');
    expect(seen[1]!.headers['x-client-fingerprint']).toBe('0123456789abcdef');
  });

  const challenge: VoteChallenge = {
    parameters: { algorithm: 'PBKDF2/SHA-256', nonce: 'n', salt: 's', cost: 1, keyLength: 32, keyPrefix: '00' },
    signature: 'sig',
  };

  it('answers a proof-of-work challenge (428) by solving it and sending the vote once more with the proof', async () => {
    answer = ({ method, headers }) => {
      if (method === 'GET') return { status: 200, json: session('t5') };
      return headers['x-vote-proof'] === 'solved'
        ? { status: 200, json: { logoId: 'logo-1' } }
        : { status: 428, json: { message: 'm', challenge } };
    };
    const solved: VoteChallenge[] = [];
    const api = client(async (given) => {
      solved.push(given);
      return 'solved';
    });
    await expect(api.submitVote(SESSION, 'logo-1', '0123456789abcdef')).resolves.toEqual({ logoId: 'logo-1' });
    expect(solved).toEqual([challenge]);
    expect(seen.filter((s) => s.method === 'POST').map((s) => [s.headers['x-vote-proof'], s.headers['x-csrf-token'], s.body])).toEqual([
      [undefined, 't5', '{"logoId":"logo-1"}'],
      ['solved', 't5', '{"logoId":"logo-1"}'],
    ]);
  });

  it('solves the next level when the seats of the first were taken meanwhile, telling the page each time a solve starts', async () => {
    const nextLevel: VoteChallenge = { ...challenge, parameters: { ...challenge.parameters, nonce: 'n2' } };
    answer = ({ method, headers }) => {
      if (method === 'GET') return { status: 200, json: session('t8') };
      if (headers['x-vote-proof'] === 'proof-2') return { status: 200, json: { logoId: 'logo-1' } };
      return { status: 428, json: { message: 'm', challenge: headers['x-vote-proof'] ? nextLevel : challenge } };
    };
    const solved: VoteChallenge[] = [];
    const api = client(async (given) => `proof-${solved.push(given)}`);
    let solving = 0;
    await expect(api.submitVote(SESSION, 'logo-1', '0123456789abcdef', () => solving++)).resolves.toEqual({ logoId: 'logo-1' });
    expect(solved).toEqual([challenge, nextLevel]);
    expect(solving).toBe(2);
  });

  it('gives up after four solves when every proof finds its seats taken', async () => {
    answer = ({ method }) => (method === 'GET' ? { status: 200, json: session('t9') } : { status: 428, json: { message: 'm', challenge } });
    let solves = 0;
    const api = client(async () => `proof-${++solves}`);
    await expect(api.submitVote(SESSION, 'logo-1', '0123456789abcdef')).rejects.toMatchObject({
      message: 'Voting failed with status: 428',
    });
    expect(solves).toBe(4);
  });

  it("fails with 'Voting failed with status: {status}' when the proof is refused, without solving again", async () => {
    let solves = 0;
    answer = ({ method, headers }) => {
      if (method === 'GET') return { status: 200, json: session('t6') };
      return headers['x-vote-proof'] ? { status: 409, json: { message: 'used' } } : { status: 428, json: { message: 'm', challenge } };
    };
    const api = client(async () => `proof-${++solves}`);
    await expect(api.submitVote(SESSION, 'logo-1', '0123456789abcdef')).rejects.toMatchObject({
      message: 'Voting failed with status: 409',
    });
    expect(solves).toBe(1);
  });

  it('does not solve anything for a 428 without a challenge', async () => {
    answer = ({ method }) => (method === 'GET' ? { status: 200, json: session('t7') } : { status: 428, json: { message: 'm' } });
    const api = client(() => Promise.reject(new Error('not expected')));
    await expect(api.submitVote(SESSION, 'logo-1', '0123456789abcdef')).rejects.toMatchObject({
      message: 'Voting failed with status: 428',
    });
  });
});

describe("the page's own copy of the poll, and the my-vote read started ahead", () => {
  const pageClient = (pagePoll: (sessionId: string) => ReturnType<typeof session> | undefined) =>
    createApiClient({ baseUrl, pagePoll, warn: (message) => warnings.push(message) });

  it("answers the first read from the page's copy without a request, then asks the server", async () => {
    let unread = true;
    const api = pageClient((id) => (id === SESSION && unread ? ((unread = false), session('from-the-page')) : undefined));
    answer = () => ({ status: 200, json: session('from-the-server') });
    await expect(api.getSession(SESSION)).resolves.toMatchObject({ sessionId: SESSION });
    expect(seen).toHaveLength(0);
    await expect(api.getSession(SESSION)).resolves.toMatchObject({ csrfToken: 'from-the-server' });
    expect(seen.map(({ url }) => url)).toEqual([`/api/sessions/${SESSION}`]);
  });

  it("never takes the page copy's token for a write: the write reads the poll afresh first", async () => {
    const api = pageClient(() => session('issued-to-the-gateway'));
    answer = ({ method }) =>
      method === 'GET' ? { status: 200, json: session('issued-to-this-browser') } : { status: 200, json: { logoId: 'L1' } };
    await api.getSession(SESSION);
    await api.submitVote(SESSION, 'L1', '0123456789abcdef');
    const vote = seen.find(({ method }) => method === 'POST');
    expect(vote?.headers['x-csrf-token']).toBe('issued-to-this-browser');
  });

  it('hands a my-vote read started ahead to the first getMyVote for the same poll and fingerprint, once', async () => {
    const api = client();
    answer = () => ({ status: 200, json: { hasVoted: true, logoId: 'L2' } });
    api.prefetchMyVote(SESSION, '0123456789abcdef');
    api.prefetchMyVote(SESSION, '0123456789abcdef');
    await expect(api.getMyVote(SESSION, '0123456789abcdef')).resolves.toEqual({ hasVoted: true, logoId: 'L2' });
    expect(seen).toHaveLength(1);
    await api.getMyVote(SESSION, '0123456789abcdef');
    await api.getMyVote(SESSION, 'fedcba9876543210');
    expect(seen.map(({ headers }) => headers['x-client-fingerprint'])).toEqual([
      '0123456789abcdef',
      '0123456789abcdef',
      'fedcba9876543210',
    ]);
  });

  it('gives the answer of a my-vote read started ahead synchronously once it has come, once, and then reads again', async () => {
    const api = client();
    answer = () => ({ status: 200, json: { hasVoted: true, logoId: 'L2' } });
    const ahead = api.prefetchMyVote(SESSION, '0123456789abcdef');
    expect(api.takeMyVote(SESSION, '0123456789abcdef')).toBeUndefined();
    await ahead;
    expect(api.takeMyVote(SESSION, 'fedcba9876543210')).toBeUndefined();
    expect(api.takeMyVote(SESSION, '0123456789abcdef')).toEqual({ hasVoted: true, logoId: 'L2' });
    expect(api.takeMyVote(SESSION, '0123456789abcdef')).toBeUndefined();
    await api.getMyVote(SESSION, '0123456789abcdef');
    expect(seen).toHaveLength(2);
  });
});
