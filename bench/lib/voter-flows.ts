/**
 * Voters as a shared link brings them: each a new visitor from a network address of its own, on a
 * connection of its own (kept for its three requests, as a browser keeps it), doing what the voting page
 * does: load the session, ask whether it already voted, vote. `concurrency` voters at a time. k6 binds one
 * address per virtual user for the whole run, so these flows come from the bench's own process instead.
 */
import { Agent, request } from 'node:http';

export interface FlowPoll {
  sessionId: string;
  logoIds: string[];
}

export interface VoterFlowOptions {
  /** The gateway, with the prefix the flows go to ('' for the product, '/reference' for the reference flow). */
  baseUrl: string;
  polls: FlowPoll[];
  voters: number;
  concurrency: number;
  /** The first voter's index among all the bench's voters: picks its address and fingerprint, never reused. */
  firstVoter: number;
}

export type FlowRequest = 'session' | 'myVote' | 'vote';

export interface VoterFlowRun {
  voters: number;
  seconds: number;
  /** Flows with a request that was not answered 200, by the first such request and its status. */
  failures: Record<string, number>;
  failedFlows: number;
  /** Each request's time to its whole answer, in ms, in voter order. */
  durations: Record<FlowRequest, number[]>;
}

/** Loopback addresses from 127.128.0.0 up (Linux routes all of 127/8 to lo): 254 × 254 per /16, none ending in 0 or 255. */
function voterAddress(index: number): string {
  const perBlock = 254 * 254;
  const block = 128 + Math.floor(index / perBlock);
  if (block > 254) throw new Error(`no loopback address for voter ${index}`);
  const within = index % perBlock;
  return `127.${block}.${Math.floor(within / 254) + 1}.${(within % 254) + 1}`;
}

/** The voter's 16 hexadecimal fingerprint characters, as bench/k6/lib/api.js makes them. */
const fingerprintOf = (index: number) => `f${index.toString(16).padStart(15, '0')}`;

/** The logo a run's voter `index` picks: poll index % polls, logo by the round, so the expected counts follow from the index alone. */
export function scheduledVote(polls: FlowPoll[], index: number): { poll: FlowPoll; logoId: string } {
  const poll = polls[index % polls.length]!;
  return { poll, logoId: poll.logoIds[Math.floor(index / polls.length) % poll.logoIds.length]! };
}

interface Answer {
  status: number;
  body: string;
  cookies: string[];
}

function send(agent: Agent, url: URL, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, method, headers, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          cookies: (res.headers['set-cookie'] ?? []).map((cookie) => cookie.split(';')[0]!),
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** The flow of the run's voter `index`; resolves with the request that failed and how ('' when all three were answered 200). */
async function voterFlow(options: VoterFlowOptions, index: number, durations: Record<FlowRequest, number[]>): Promise<string> {
  const { poll, logoId } = scheduledVote(options.polls, index);
  const fingerprint = fingerprintOf(options.firstVoter + index);
  const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: voterAddress(options.firstVoter + index) });
  const base = `${options.baseUrl}/api/sessions/${poll.sessionId}`;
  const timed = async (name: FlowRequest, url: string, method: string, headers: Record<string, string>, body?: string) => {
    const started = performance.now();
    const answer = await send(agent, new URL(url), method, headers, body);
    durations[name].push(performance.now() - started);
    return answer;
  };
  try {
    const session = await timed('session', base, 'GET', { Accept: 'application/json' });
    if (session.status !== 200) return `session ${session.status}`;
    const headers = { Accept: 'application/json', 'X-Client-Fingerprint': fingerprint };
    const myVote = await timed('myVote', `${base}/my-vote`, 'GET', headers);
    if (myVote.status !== 200) return `my-vote ${myVote.status}`;
    const { csrfToken } = JSON.parse(session.body) as { csrfToken: string };
    const vote = await timed(
      'vote',
      `${base}/vote`,
      'POST',
      { ...headers, 'Content-Type': 'application/json', 'X-CSRF-Token': csrfToken, Cookie: session.cookies.join('; ') },
      JSON.stringify({ logoId }),
    );
    return vote.status === 200 ? '' : `vote ${vote.status}`;
  } catch (error) {
    return `error ${(error as Error).message}`;
  } finally {
    agent.destroy();
  }
}

/** Runs `voters` flows, `concurrency` at a time, each voter a new address and connection. */
export async function runVoterFlows(options: VoterFlowOptions): Promise<VoterFlowRun> {
  const durations: Record<FlowRequest, number[]> = { session: [], myVote: [], vote: [] };
  const failures: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < options.voters) {
      const failure = await voterFlow(options, next++, durations);
      if (failure) failures[failure] = (failures[failure] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    voters: options.voters,
    seconds: (performance.now() - started) / 1000,
    failures,
    failedFlows: Object.values(failures).reduce((sum, n) => sum + n, 0),
    durations,
  };
}
