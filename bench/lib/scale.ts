/**
 * The scale section of `npm run bench`: real voter flows through the gateway until 100 000 votes are
 * stored, the hot paths timed at 0, 100 000 and 1 000 000 stored votes (the last 900 000 written by the
 * product's own data-access code, as votes and their ledger revisions), and the counts checked exact.
 * The pages are measured (Lighthouse) at 0 and 100 000 through `measurePages`.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { countPendingVotes, insertFirstVotes, type FirstVote } from '@logovote/models';
import { loopbackRange, metricValue, runK6, type K6Run } from './k6';
import type { BenchPoll } from './polls';
import { cpuSeconds, machineBusySeconds, type WatchedProcess } from './processes';

/** The voters of one flow batch: one address per VU, ITERATIONS / POLLS voters per address and poll. */
export const FLOW_VUS = 40;
const FLOW_ITERATIONS = 250;
export const SCALE_POLLS = 50;
const FLOW_VOTES = 100_000;
const BULK_VOTES = 1_000_000;
const PROBE_ITERATIONS = 100;
/** Written at once, one poll's, counted by one tally step. */
export const BULK_BATCH = 2000;
const BULK_WRITERS = 4;

export interface ScaleProbe {
  storedVotes: number;
  load: number[];
  run: K6Run;
}

export interface ScaleResults {
  flows: {
    runs: K6Run[];
    voters: number;
    seconds: number;
    failedRequests: number;
    load: number[];
    /** CPU seconds each process of the stack used during the flows (k6 itself: the rest of the machine). */
    cpu: { name: string; seconds: number }[];
    /** CPU seconds the whole machine was busy during the flows, all cores together. */
    machineCpuSeconds: number;
  };
  bulk: { votes: number; seconds: number };
  /** Ledger entries the folder had still to fold when each probe after the flows and the bulk load began. */
  pendingAtProbe: number[];
  probes: ScaleProbe[];
  exact: { expected: number; counted: number; mismatches: number };
}

/** The hot paths the probe times, by their k6 request name. */
export const PROBED = ['session_view', 'my_vote', 'first_vote', 'changed_vote', 'admin_page'] as const;
export const probeMs = (probe: ScaleProbe, name: (typeof PROBED)[number], stat: 'med' | 'p(95)') =>
  metricValue(probe.run, `http_req_duration{name:${name}}`, stat);

interface ScaleOptions {
  gateway: string;
  mongoUri: string;
  polls: BenchPoll[];
  adminAuthorization: string;
  outDir: string;
  /** The stack's processes, whose CPU use during the flows is reported. */
  processes: WatchedProcess[];
  /** Called after the probe on the empty store and after the one at 100 000 votes, before the bulk load: the bench's Lighthouse step. */
  measurePages: (storedVotes: number) => Promise<void>;
  log: (line: string) => void;
}

/** The votes per poll and logo that the flow batches and probes cast, from their schedules alone. */
function expectedCounts(polls: BenchPoll[], batches: number, probes: number): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string, n: number) => counts.set(key, (counts.get(key) ?? 0) + n);
  for (let iteration = 0; iteration < FLOW_ITERATIONS; iteration++) {
    const poll = polls[iteration % polls.length]!;
    const logo = poll.logoIds[Math.floor(iteration / polls.length) % poll.logoIds.length]!;
    add(`${poll.sessionId}/${logo}`, FLOW_VUS * batches);
  }
  for (let iteration = 0; iteration < PROBE_ITERATIONS; iteration++) {
    const poll = polls[iteration % polls.length]!;
    add(`${poll.sessionId}/${poll.logoIds[1]!}`, probes);
  }
  return counts;
}

async function probe(options: ScaleOptions, index: number, storedVotes: number, pollsFile: string): Promise<ScaleProbe> {
  options.log(`  timing the hot paths at ${storedVotes.toLocaleString('en')} stored votes`);
  const run = await runK6({
    script: 'scale-probe.js',
    env: {
      BASE_URL: options.gateway,
      POLLS_FILE: pollsFile,
      ITERATIONS: String(PROBE_ITERATIONS),
      PROBE: String(index),
      ADMIN_AUTH: options.adminAuthorization,
    },
    localIps: loopbackRange(40 + index, 1),
    outDir: join(options.outDir, `scale-probe-${index}`),
  });
  if (run.crossed.length > 0) throw new Error(`the probe at ${storedVotes} votes failed: ${run.crossed.join(', ')} (${run.logFile})`);
  return { storedVotes, load: loadavg(), run };
}

/**
 * Writes first votes spread over the polls, BULK_WRITERS batches at a time. Each batch is one poll's
 * and is written already counted (one tally step per batch), as the folder would leave it.
 */
async function bulkLoad(options: ScaleOptions, count: number): Promise<void> {
  await mongoose.connect(options.mongoUri);
  try {
    let next = 0;
    const writer = async () => {
      while (next < count) {
        const start = next;
        next += BULK_BATCH;
        const poll = options.polls[(start / BULK_BATCH) % options.polls.length]!;
        const votes: FirstVote[] = [];
        for (let i = start; i < Math.min(start + BULK_BATCH, count); i++) {
          const voter = `b${i.toString(16).padStart(15, '0')}`;
          votes.push({
            pollId: poll.sessionId,
            fingerprint: voter,
            logoId: poll.logoIds[i % poll.logoIds.length]!,
            ipHash: voter,
            ipSlot: 0,
          });
        }
        await insertFirstVotes(votes, { folded: true });
        if ((start / BULK_BATCH) % 100 === 0) options.log(`    ${start.toLocaleString('en')} written`);
      }
    };
    await Promise.all(Array.from({ length: BULK_WRITERS }, writer));
  } finally {
    await mongoose.disconnect();
  }
}

/**
 * Waits (up to a minute) until the votes service's folder has caught up with the votes just cast, so
 * the probe times the hot paths at this size rather than behind a backlog (the flows' own figures show
 * the backlog's cost). Resolves with the entries still pending.
 */
async function foldersCaughtUp(mongoUri: string): Promise<number> {
  await mongoose.connect(mongoUri);
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const pending = await countPendingVotes();
      if (pending === 0 || Date.now() > deadline) return pending;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  } finally {
    await mongoose.disconnect();
  }
}

async function countedVotes(gateway: string, polls: BenchPoll[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const poll of polls) {
    const session = (await (await fetch(`${gateway}/api/sessions/${poll.sessionId}`)).json()) as {
      logos: { id: string; voteCount: number }[];
    };
    for (const logo of session.logos) counts.set(`${poll.sessionId}/${logo.id}`, logo.voteCount);
  }
  return counts;
}

export async function runScaleSection(options: ScaleOptions): Promise<ScaleResults> {
  const { polls, outDir, log } = options;
  const pollsFile = join(outDir, 'scale-polls.json');
  writeFileSync(pollsFile, JSON.stringify(polls));
  const probes = [await probe(options, 0, 0, pollsFile)];
  await options.measurePages(0);

  const batches = FLOW_VOTES / (FLOW_VUS * FLOW_ITERATIONS);
  log(
    `real voter flows through the gateway until ${FLOW_VOTES.toLocaleString('en')} votes are stored (${batches} batches of ${FLOW_VUS} addresses)`,
  );
  const flowsStarted = Date.now();
  const cpuBefore = options.processes.map(({ pid }) => cpuSeconds(pid));
  const machineBefore = machineBusySeconds();
  const runs: K6Run[] = [];
  for (let batch = 0; batch < batches; batch++) {
    const run = await runK6({
      script: 'scale-voters.js',
      env: {
        BASE_URL: options.gateway,
        POLLS_FILE: pollsFile,
        VUS: String(FLOW_VUS),
        ITERATIONS: String(FLOW_ITERATIONS),
        BATCH: String(batch),
      },
      localIps: loopbackRange(20 + batch, FLOW_VUS),
      outDir: join(outDir, `scale-voters-${batch}`),
    });
    runs.push(run);
    log(
      `  batch ${batch + 1}: ${metricValue(run, 'iterations', 'rate').toFixed(0)} voters/s, ${metricValue(run, 'http_req_failed', 'passes')} failed requests`,
    );
  }
  const flowSeconds = (Date.now() - flowsStarted) / 1000;
  const flows = {
    runs,
    voters: runs.reduce((sum, run) => sum + metricValue(run, 'iterations', 'count'), 0),
    seconds: flowSeconds,
    failedRequests: runs.reduce((sum, run) => sum + (metricValue(run, 'http_req_failed', 'passes') || 0), 0),
    load: loadavg(),
    cpu: options.processes.map(({ name, pid }, index) => ({ name, seconds: cpuSeconds(pid) - cpuBefore[index]! })),
    machineCpuSeconds: machineBusySeconds() - machineBefore,
  };
  const pendingAtProbe = [await foldersCaughtUp(options.mongoUri)];
  log(`  ${pendingAtProbe[0]} votes left to fold`);
  probes.push(await probe(options, 1, FLOW_VOTES + PROBE_ITERATIONS, pollsFile));
  await options.measurePages(FLOW_VOTES + PROBE_ITERATIONS);

  const expected = expectedCounts(polls, batches, 2);
  const counted = await countedVotes(options.gateway, polls);
  const exact = {
    expected: [...expected.values()].reduce((sum, n) => sum + n, 0),
    counted: [...counted.values()].reduce((sum, n) => sum + n, 0),
    mismatches: [...new Set([...expected.keys(), ...counted.keys()])].filter((key) => (expected.get(key) ?? 0) !== (counted.get(key) ?? 0))
      .length,
  };
  log(`  counts: ${exact.counted} counted, ${exact.expected} expected, ${exact.mismatches} mismatches`);

  // What is stored now: the flows' voters and the two probes' (counting the stored votes would read them all on FerretDB).
  const stored = flows.voters + 2 * PROBE_ITERATIONS;
  const bulkVotes = Math.max(0, BULK_VOTES - stored);
  log(`writing ${bulkVotes.toLocaleString('en')} more votes with the product's data-access code`);
  const bulkStarted = Date.now();
  await bulkLoad(options, bulkVotes);
  const bulk = { votes: bulkVotes, seconds: (Date.now() - bulkStarted) / 1000 };
  pendingAtProbe.push(await foldersCaughtUp(options.mongoUri));
  log(`  ${pendingAtProbe[1]} votes left to fold`);
  probes.push(await probe(options, 2, stored + bulkVotes, pollsFile));
  return { flows, bulk, pendingAtProbe, probes, exact };
}
