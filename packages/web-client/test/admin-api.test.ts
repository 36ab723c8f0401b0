// The client under test is browser code: type-check it against the DOM library wherever this test is compiled.
/// <reference lib="dom" />

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { AdminPollList, DeletedPoll, UploadRefusalList } from '@logovote/contracts';

import { createApiClient } from '../src/api-client';
import { ApiError } from '../src/api-error';

type Seen = { method: string; url: string; csrf: string | undefined };
type Reply = { status: number; json?: unknown; headers?: Record<string, string> };

/** A real HTTP server standing in for the gateway: each test says how it answers. */
let server: Server;
let baseUrl: string;
let seen: Seen[];
let answer: (request: Seen) => Reply;
let inits: (RequestInit | undefined)[];

beforeAll(async () => {
  server = createServer((req, res) => {
    const request = { method: req.method ?? '', url: req.url ?? '', csrf: req.headers['x-csrf-token'] as string | undefined };
    seen.push(request);
    const reply = answer(request);
    res.statusCode = reply.status;
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    if (reply.json !== undefined) res.setHeader('Content-Type', 'application/json');
    res.end(reply.json !== undefined ? JSON.stringify(reply.json) : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
  inits = [];
  answer = () => ({ status: 200, json: {} });
});

function client() {
  return createApiClient({
    baseUrl,
    fetch: (input, init) => {
      inits.push(init);
      return fetch(input, init);
    },
  });
}

const POLL_ID = 'AAAAAAAAAAAAAAAA';
const FILENAME = 'abcdefghijklmnopqrstuv.png';

describe('admin calls (spec section 7)', () => {
  it('lists the polls with GET /api/admin/polls, with credentials', async () => {
    const polls: AdminPollList = [
      {
        pollId: POLL_ID,
        feedbackPrompt: null,
        createdAt: '2025-05-24T14:30:00.000Z',
        totalVotes: 0,
        creatorEmail: null,
        paymentPlan: 'free',
        logos: [],
      },
    ];
    answer = () => ({ status: 200, json: polls });
    await expect(client().listAdminPolls()).resolves.toEqual({ polls, total: 1 });
    expect(seen).toEqual([{ method: 'GET', url: '/api/admin/polls', csrf: undefined }]);
    expect(inits[0]?.credentials).toBe('include');
  });

  it("reads a page's total and next page from X-Total-Count and Link, and asks for that page", async () => {
    answer = ({ url }): Reply =>
      url === '/api/admin/polls'
        ? { status: 200, json: [], headers: { 'X-Total-Count': '45', Link: '</api/admin/polls?before=26&limit=20>; rel="next"' } }
        : { status: 200, json: [], headers: { 'X-Total-Count': '45' } };
    const first = await client().listAdminPolls();
    expect(first).toEqual({ polls: [], total: 45, next: '/api/admin/polls?before=26&limit=20' });
    await expect(client().listAdminPolls(first.next)).resolves.toEqual({ polls: [], total: 45 });
    expect(seen.map((request) => request.url)).toEqual(['/api/admin/polls', '/api/admin/polls?before=26&limit=20']);
  });

  it('deletes a poll with DELETE /api/admin/polls/{pollId}, without any session lookup or token', async () => {
    const deleted: DeletedPoll = { pollId: POLL_ID, deleted: { logos: 2, votes: 3, objects: 2 } };
    answer = () => ({ status: 200, json: deleted });
    await expect(client().deleteAdminPoll(POLL_ID)).resolves.toEqual(deleted);
    expect(seen).toEqual([{ method: 'DELETE', url: `/api/admin/polls/${POLL_ID}`, csrf: undefined }]);
  });

  it("fails a refused delete with the generic '{status}: {body}' error", async () => {
    answer = () => ({ status: 404, json: { message: 'Poll not found' } });
    const error = await client()
      .deleteAdminPoll('a/b')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('404: {"message":"Poll not found"}');
    expect(seen[0]?.url).toBe('/api/admin/polls/a%2Fb');
  });
});

describe('refused uploads', () => {
  it('lists them with GET /api/admin/refusals, with credentials, and follows the next page from Link', async () => {
    const refusals: UploadRefusalList = [
      {
        refusalId: '1764000000000-0a1b2c3d',
        at: '2025-11-24T16:00:00.000Z',
        fileName: 'portrait.png',
        declaredType: 'image/png',
        size: 2048,
        stage: 'moderation',
        status: 422,
        message: '"portrait.png" was rejected by content moderation: Human face detected',
        refusedBy: ['faces'],
        checks: [{ check: 'faces', isValid: false, reason: 'Human face detected' }],
      },
    ];
    const next = '/api/admin/refusals?before=1764000000000-0a1b2c3d&limit=20';
    answer = ({ url }): Reply =>
      url === '/api/admin/refusals'
        ? { status: 200, json: refusals, headers: { Link: `<${next}>; rel="next"` } }
        : { status: 200, json: [] };
    const first = await client().listUploadRefusals();
    expect(first).toEqual({ refusals, next });
    await expect(client().listUploadRefusals(first.next)).resolves.toEqual({ refusals: [] });
    expect(seen.map((request) => request.url)).toEqual(['/api/admin/refusals', next]);
    expect(inits[0]?.credentials).toBe('include');
  });
});

describe('logo images', () => {
  it('names the URL an image is served at', () => {
    expect(client().logoUrl(FILENAME)).toBe(`${baseUrl}/api/logos/${FILENAME}`);
  });

  it('checks an image with a HEAD request that revalidates the browser cache: true when it can be fetched', async () => {
    answer = () => ({ status: 200 });
    await expect(client().logoExists(FILENAME)).resolves.toBe(true);
    expect(seen).toEqual([{ method: 'HEAD', url: `/api/logos/${FILENAME}`, csrf: undefined }]);
    expect(inits[0]).toMatchObject({ method: 'HEAD', cache: 'no-cache', credentials: 'include' });
  });

  it('says false when the server no longer has the image (404)', async () => {
    answer = () => ({ status: 404 });
    await expect(client().logoExists(FILENAME)).resolves.toBe(false);
  });

  it.each([429, 503])('throws when the check itself fails (%i), so the caller can try again', async (status) => {
    answer = () => ({ status });
    await expect(client().logoExists(FILENAME)).rejects.toMatchObject({ name: 'ApiError', status });
  });
});
