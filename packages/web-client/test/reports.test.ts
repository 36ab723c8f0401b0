// The client under test is browser code: type-check it against the DOM library wherever this test is compiled.
/// <reference lib="dom" />

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { createApiClient, MESSAGES } from '../src/api-client';
import { isPollHidden } from '../src/closing';

type Seen = { method: string; url: string; csrf: string | undefined; body: string };
type Reply = { status: number; json?: unknown };

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
        csrf: req.headers['x-csrf-token'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(request);
      const reply = answer(request);
      res.statusCode = reply.status;
      if (reply.json !== undefined) res.setHeader('Content-Type', 'application/json');
      res.end(reply.json !== undefined ? JSON.stringify(reply.json) : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
});

const SESSION = 'AAAAAAAAAAAAAAAA';
const client = () => createApiClient({ baseUrl });

describe('reports', () => {
  it("reports a poll with POST /api/sessions/{id}/reports and the session's anti-forgery token", async () => {
    answer = ({ method }) => ({
      status: 200,
      json: method === 'GET' ? { sessionId: SESSION, logos: [], totalVotes: 0, csrfToken: 'tok' } : { sessionId: SESSION, reported: true },
    });
    await expect(client().reportPoll(SESSION, { category: 'copyright', note: 'Mine' })).resolves.toEqual({
      sessionId: SESSION,
      reported: true,
    });
    expect(seen.map((request) => [request.method, request.url, request.csrf])).toEqual([
      ['GET', `/api/sessions/${SESSION}`, undefined],
      ['POST', `/api/sessions/${SESSION}/reports`, 'tok'],
    ]);
    expect(JSON.parse(seen[1]!.body)).toEqual({ category: 'copyright', note: 'Mine' });
  });

  it("throws the server's message on a refusal (the rate limit), or a fallback without one", async () => {
    answer = ({ method }) =>
      method === 'GET'
        ? { status: 200, json: { sessionId: SESSION, logos: [], totalVotes: 0, csrfToken: 'tok' } }
        : { status: 429, json: { message: 'Too many reports' } };
    const api = client();
    await expect(api.reportPoll(SESSION, { category: 'other' })).rejects.toThrow('Too many reports');
    answer = ({ method }) =>
      method === 'GET' ? { status: 200, json: { sessionId: SESSION, logos: [], totalVotes: 0, csrfToken: 'tok' } } : { status: 502 };
    await expect(api.reportPoll(SESSION, { category: 'other' })).rejects.toThrow(MESSAGES.reportFailed);
  });

  it('lists reported polls and restores one with PUT .../review {round}', async () => {
    answer = () => ({ status: 200, json: [] });
    await expect(client().listReportedPolls()).resolves.toEqual([]);
    answer = () => ({ status: 200, json: { pollId: SESSION, hidden: false, round: 2 } });
    await expect(client().restoreReportedPoll('a/b', 1)).resolves.toEqual({ pollId: SESSION, hidden: false, round: 2 });
    expect(seen.map((request) => [request.method, request.url])).toEqual([
      ['GET', '/api/admin/reports'],
      ['PUT', '/api/admin/reports/a%2Fb/review'],
    ]);
    expect(JSON.parse(seen[1]!.body)).toEqual({ round: 1 });
  });

  it('reads hidden from the session view only when it says true', () => {
    const view = { sessionId: SESSION, logos: [], totalVotes: 0 };
    expect(isPollHidden(view)).toBe(false);
    expect(isPollHidden({ ...view, hidden: true } as typeof view)).toBe(true);
  });
});
