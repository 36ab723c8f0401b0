/**
 * The bench's live results section (docs/live-results.md): 1 000 results pages' event streams held open
 * through the gateway, votes cast while they are, and what each vote then costs: its delivery to every
 * stream, the gateway's and the sessions service's memory and open files, and the database's reads per
 * vote with one viewer and with all of them.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LiveCounts } from '@logovote/contracts';
import { openEventStream, type EventStream } from '../../tests/support/event-stream';
import { call, targetOf } from '../../tests/hostile/support/http';
import { postgresQuery } from '@logovote/devstack';
import type { BenchPoll } from './polls';
import { openFiles, residentBytes, type WatchedProcess } from './processes';
import { loopbackAddress } from './k6';
import { percentile } from './stats';

const LIVE_VIEWERS = 1_000;
/** Viewers per client address: under the gateway's per-address cap (LIVE_STREAMS_PER_ADDRESS). */
const VIEWERS_PER_ADDRESS = 25;
const VOTES = 20;
/**
 * Votes in a window where reads are counted: enough for a vote's reads to stand out of the background work's,
 * which moves by some 5 reads a second between windows (30 votes were within that noise).
 */
const VOTES_PER_WINDOW = 150;
/** Between two votes: more than a second, so each vote's delivery is measured on its own. */
const VOTE_SPACING_MS = 1_500;
/** Reads are counted over windows this long, with votes and without (the loop's own reads). */
const WINDOW_MS = 15_000;

export interface ProcessFootprint {
  residentBytes: number;
  openFiles: number;
}

export interface LiveResults {
  viewers: number;
  addresses: number;
  votes: number;
  /** From a vote's request to its counts on each stream, over every vote and stream. */
  deliveryMs: { p50: number; p95: number; max: number };
  /** The votes' own time, from request to answer (part of the delivery). */
  voteMs: { p50: number; max: number };
  /** The machine's load average (1 min) at the start and at the end of the deliveries. */
  load: [number, number];
  /** Events expected (votes × viewers) and received. */
  deliveries: { expected: number; received: number };
  openSeconds: number;
  footprint: Record<'before' | 'withStreams', Record<'gateway' | 'sessions', ProcessFootprint>>;
  /** Votes in each window where reads were counted. */
  votesPerWindow: number;
  /** Table reads (PostgreSQL's sequential and index scans) per vote, less the mean of windows without votes before and after. */
  readsPerVote: { oneViewer: number; allViewers: number };
  /** Table reads per second without votes (every process's background work, the live loop's included). */
  idleReadsPerSecond: { oneViewer: number; allViewers: number };
}

/** Sequential and index scans of every table so far (what FerretDB asked PostgreSQL to read). */
function tableReads(postgresPort: number): number {
  return Number(postgresQuery(postgresPort, 'SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0) FROM pg_stat_user_tables')[0]?.[0]);
}

/** One vote by a new voter from an address of its own; resolves when it is acknowledged. */
async function vote(gateway: string, poll: BenchPoll, csrfCookie: string, logoId: string, localAddress: string): Promise<void> {
  const answer = await call(targetOf(gateway, localAddress), {
    method: 'POST',
    path: `/api/sessions/${poll.sessionId}/vote`,
    headers: {
      'Content-Type': 'application/json',
      Cookie: `lv_csrf=${csrfCookie}`,
      'X-CSRF-Token': poll.csrfToken,
      'X-Client-Fingerprint': randomBytes(8).toString('hex'),
    },
    body: JSON.stringify({ logoId }),
  });
  if (answer.status !== 200) throw new Error(`vote: HTTP ${answer.status}`);
}

export interface LiveSectionOptions {
  gateway: string;
  postgresPort: number;
  poll: BenchPoll;
  csrfCookie: string;
  processes: WatchedProcess[];
  log: (line: string) => void;
}

export async function runLiveSection(options: LiveSectionOptions): Promise<LiveResults> {
  const { gateway, poll, csrfCookie, log } = options;
  const gatewayPid = options.processes.find((entry) => entry.name.startsWith('gateway'))?.pid;
  const sessionsPid = options.processes.find((entry) => entry.name === 'sessions')?.pid;
  const footprint = (pid: number | undefined): ProcessFootprint =>
    pid === undefined ? { residentBytes: NaN, openFiles: NaN } : { residentBytes: residentBytes(pid), openFiles: openFiles(pid) };
  const footprints = () => ({ gateway: footprint(gatewayPid), sessions: footprint(sessionsPid) });
  const url = `${gateway}/api/sessions/${poll.sessionId}/live`;
  let votesCast = 0;
  const castVote = async () => {
    const logoId = poll.logoIds[votesCast % poll.logoIds.length]!;
    await vote(gateway, poll, csrfCookie, logoId, loopbackAddress(200, votesCast));
    votesCast += 1;
  };
  /** Table reads during a window with `votes` votes in it (none: the idle cost). */
  const readsDuring = async (votes: number) => {
    const before = tableReads(options.postgresPort);
    const started = Date.now();
    for (let i = 0; i < votes; i++) {
      await castVote();
      await sleep(Math.max(0, started + ((i + 1) * WINDOW_MS) / votes - Date.now()));
    }
    await sleep(Math.max(0, WINDOW_MS - (Date.now() - started)));
    return tableReads(options.postgresPort) - before;
  };

  /** Reads per vote: a window with votes, less the mean of a window without before it and one after. */
  const readsPerVote = async () => {
    const idleBefore = await readsDuring(0);
    const voting = await readsDuring(VOTES_PER_WINDOW);
    const idleAfter = await readsDuring(0);
    const idle = (idleBefore + idleAfter) / 2;
    return { perVote: (voting - idle) / VOTES_PER_WINDOW, idlePerSecond: idle / (WINDOW_MS / 1000) };
  };

  const streams: EventStream<LiveCounts>[] = [];
  try {
    const before = footprints();
    log('live results: one viewer, reads with and without votes');
    streams.push(await openEventStream<LiveCounts>(url, { localAddress: loopbackAddress(201, 0) }));
    await streams[0]!.waitFor(() => true);
    await sleep(2_000);
    const oneViewer = await readsPerVote();

    log(`live results: opening ${LIVE_VIEWERS} streams through the gateway`);
    const opening = performance.now();
    const addresses = Math.ceil(LIVE_VIEWERS / VIEWERS_PER_ADDRESS);
    for (let batch = 1; batch < LIVE_VIEWERS; batch += 50) {
      const size = Math.min(50, LIVE_VIEWERS - batch);
      const opened = await Promise.all(
        Array.from({ length: size }, (_, i) =>
          openEventStream<LiveCounts>(url, { localAddress: loopbackAddress(201, Math.floor((batch + i) / VIEWERS_PER_ADDRESS)) }),
        ),
      );
      const refused = opened.filter((stream) => stream.status !== 200);
      if (refused.length > 0) throw new Error(`live stream refused: HTTP ${refused[0]!.status} ${refused[0]!.body}`);
      streams.push(...opened);
    }
    await Promise.all(streams.map((stream) => stream.waitFor(() => true, 60_000)));
    const openSeconds = (performance.now() - opening) / 1000;
    log(`  ${streams.length} streams open in ${openSeconds.toFixed(1)} s`);
    await sleep(2_000);
    const withStreams = footprints();

    log(`live results: ${VOTES} votes, each delivered to ${streams.length} streams`);
    const latencies: number[] = [];
    const voteTimes: number[] = [];
    const loadAtStart = loadavg()[0]!;
    let received = 0;
    for (let i = 0; i < VOTES; i++) {
      const total = (streams[0]!.events.at(-1)?.totalVotes ?? 0) + 1;
      const sent = performance.now();
      await castVote();
      voteTimes.push(performance.now() - sent);
      const arrivals = await Promise.all(
        streams.map((stream) =>
          stream
            .waitFor((counts) => counts.totalVotes >= total, 20_000)
            .then(
              () => stream.arrivals[stream.events.findIndex((counts) => counts.totalVotes >= total)]!,
              () => undefined,
            ),
        ),
      );
      for (const arrival of arrivals) {
        if (arrival === undefined) continue;
        received += 1;
        latencies.push(arrival - sent);
      }
      await sleep(VOTE_SPACING_MS);
    }
    const load: [number, number] = [loadAtStart, loadavg()[0]!];

    log('live results: all viewers, reads with and without votes');
    const allViewers = await readsPerVote();
    return {
      viewers: streams.length,
      addresses,
      votes: VOTES,
      deliveryMs: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), max: Math.max(...latencies) },
      voteMs: { p50: percentile(voteTimes, 0.5), max: Math.max(...voteTimes) },
      load,
      deliveries: { expected: VOTES * streams.length, received },
      openSeconds,
      footprint: { before, withStreams },
      votesPerWindow: VOTES_PER_WINDOW,
      readsPerVote: { oneViewer: oneViewer.perVote, allViewers: allViewers.perVote },
      idleReadsPerSecond: { oneViewer: oneViewer.idlePerSecond, allViewers: allViewers.idlePerSecond },
    };
  } finally {
    for (const stream of streams) stream.close();
  }
}
