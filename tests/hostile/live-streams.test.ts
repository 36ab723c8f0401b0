/**
 * Live results' event streams through the gateway (docs/live-results.md): one address cannot hold more than
 * LIVE_STREAMS_PER_ADDRESS of them (the gateway's limit_conn), others are not affected, and bad poll ids get
 * JSON answers, never a stream. Streams come unbuffered and uncompressed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIVE_STREAMS_PER_ADDRESS, LiveCounts, SESSION_NOT_FOUND } from '@logovote/contracts';
import { repoRoot } from '@logovote/devstack';
import { openEventStream, type EventStream } from '../support/event-stream';
import { createPoll } from '../support/polls';
import { testStack } from '../support/stack-env';
import { call, targetOf } from './support/http';

jest.setTimeout(60_000);

const { gatewayUrl } = testStack();
/** Addresses of this file's own, so streams of the browser tests running beside it do not count against its cap. */
const HOARDER = '127.0.0.117';
const NEIGHBOUR = '127.0.0.118';
const opened: EventStream<LiveCounts>[] = [];
const liveUrl = (sessionId: string) => `${gatewayUrl}/api/sessions/${sessionId}/live`;

afterEach(() => {
  for (const stream of opened.splice(0)) stream.close();
});

async function open(sessionId: string, localAddress: string, headers: Record<string, string> = {}) {
  const stream = await openEventStream<LiveCounts>(liveUrl(sessionId), { localAddress, headers });
  opened.push(stream);
  return stream;
}

describe('the live stream through the gateway', () => {
  it('comes at once, uncompressed, whatever the client accepts', async () => {
    const { sessionId } = await createPoll();
    const stream = await open(sessionId, NEIGHBOUR, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers['x-accel-buffering']).toBeUndefined();
    expect(LiveCounts.parse(await stream.waitFor(() => true)).totalVotes).toBe(0);
  });

  it(`holds at most ${LIVE_STREAMS_PER_ADDRESS} streams per address: JSON 429 past it, other addresses unaffected`, async () => {
    const template = readFileSync(join(repoRoot, 'gateway', 'templates', 'default.conf.template'), 'utf8');
    expect(/limit_conn live_streams_per_client (\d+);/.exec(template)?.[1]).toBe(String(LIVE_STREAMS_PER_ADDRESS));

    const { sessionId } = await createPoll();
    const held = [];
    for (let i = 0; i < LIVE_STREAMS_PER_ADDRESS; i++) held.push(await open(sessionId, HOARDER));
    expect(held.map((stream) => stream.status)).toEqual(held.map(() => 200));

    const refused = await open(sessionId, HOARDER);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toBe('application/json');
    expect(JSON.parse(refused.body)).toEqual({ message: 'Too many requests. Please slow down and try again in a moment.' });

    const neighbour = await open(sessionId, NEIGHBOUR);
    expect(neighbour.status).toBe(200);

    // A stream closed frees its place (once the gateway has seen it close).
    held.pop()!.close();
    let again = await open(sessionId, HOARDER);
    for (let attempt = 0; again.status === 429 && attempt < 250; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await open(sessionId, HOARDER);
    }
    expect(again.status).toBe(200);
  });

  it.each([
    ['an unknown poll', 'AAAAAAAAAAAAAAAA', 404, SESSION_NOT_FOUND],
    ['a malformed id', 'not-a-poll', 404, SESSION_NOT_FOUND],
    ['markup', '%3Cscript%3Ealert(1)%3C%2Fscript%3E', 404, SESSION_NOT_FOUND],
    ['a very long id', 'A'.repeat(2000), 404, SESSION_NOT_FOUND],
    ['a NoSQL operator', '%7B%22%24ne%22%3Anull%7D', 404, SESSION_NOT_FOUND],
    // Refused by the gateway itself, before any service.
    ['a NUL byte', '%00', 400, 'Bad request'],
  ])('answers %s with JSON, never a stream', async (_, id, status, message) => {
    const answer = await call(targetOf(gatewayUrl, NEIGHBOUR), { method: 'GET', path: `/api/sessions/${id}/live` });
    expect({ status: answer.status, type: answer.headers['content-type']?.split(';')[0] }).toEqual({ status, type: 'application/json' });
    expect(JSON.parse(answer.body)).toEqual({ message });
  });

  it('refuses other methods with JSON', async () => {
    const { sessionId } = await createPoll();
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const answer = await call(targetOf(gatewayUrl, NEIGHBOUR), { method, path: `/api/sessions/${sessionId}/live` });
      expect({ method, status: answer.status }).toEqual({ method, status: 405 });
      expect(JSON.parse(answer.body)).toEqual({ message: 'Method not allowed' });
    }
  });
});
