/**
 * The scale section of `npm run bench`: real voter flows through the gateway in two shapes, voters spread
 * over many polls until 100 000 votes are stored and then as many on one widely shared poll, with what each
 * voter flow costs the database (commands per service, PostgreSQL rows read) and each process's CPU; the hot
 * paths timed at 0, 100 000 and 1 000 000 stored votes (the rest written by the product's own data-access
 * code, as votes and their ledger revisions), and the counts checked exact. The pages are measured
 * (Lighthouse) at 0 and 100 000 through `measurePages`.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mongoose from 'mongoose';
import { voteLedger } from '@logovote/models';
import { postgresQuery } from '@logovote/devstack';
import { loopbackRange, metricValue, runK6, type K6Run } from './k6';
import { runVoterFlows, scheduledVote, type FlowRequest } from './voter-flows';
import { createPolls, voteCounts, type BenchPoll } from './polls';
import { cpuSeconds, machineBusySeconds, type WatchedProcess } from './processes';
import { insertFirstVotes, type FirstVote } from '@logovote/models/test-support';
import { percentile } from './stats';

/** Voters on their way at once, as the measurement from outside had them (32 browsers at a time). */
export const FLOW_CONCURRENCY = 32;
export const SCALE_POLLS = 50;
/** Voters of each shape: LOGOVOTE_BENCH_SCALE_VOTERS scales both down for a quick check. */
const SHAPE_VOTERS = Number(process.env.LOGOVOTE_BENCH_SCALE_VOTERS ?? 100_000);
/** The one-poll shape's voters: 20 000 keep the bench within the hour. */
const ONE_POLL_VOTERS = Math.min(SHAPE_VOTERS, 20_000);
/** The reference flows after each shape: enough for a steady rate, on the store as that shape left it. */
const REFERENCE_VOTERS = Math.min(SHAPE_VOTERS, 20_000);
const BULK_VOTES = 1_000_000;
const PROBE_ITERATIONS = 100;
/** Written at once, one poll's, counted by one tally step. */
export const BULK_BATCH = 2000;
const BULK_WRITERS = 4;
/** PostgreSQL's backends flush their table statistics up to 10 s late while busy (1 s when idle). */
const STATS_SETTLE_MS = 11_000;

export interface ScaleProbe {
  storedVotes: number;
  load: number[];
  run: K6Run;
}

/** What a run of flows cost, counted from just before it until its writes were all done. */
export interface FlowCosts {
  voters: number;
  /** Of the flows alone. */
  seconds: number;
  /** Flows with a request not answered 200, by that request and its status. */
  failures: Record<string, number>;
  failedFlows: number;
  /** p50 and p95 of each request, in ms. */
  requestMs: Record<FlowRequest, { p50: number; p95: number }>;
  load: number[];
  /** CPU seconds each process of the stack used (the load generator, in the bench's process: the rest of the machine). */
  cpu: { name: string; seconds: number }[];
  /** CPU seconds the whole machine was busy, all cores together. */
  machineCpuSeconds: number;
  /** Database commands each server started (its GET /metrics), by command name. */
  dbCommands: Record<string, Record<string, number>>;
  /** Rows PostgreSQL read for FerretDB (seq_tup_read + idx_tup_fetch), by table. */
  rowsRead: Record<string, number>;
}

export interface FlowShape extends FlowCosts {
  /** spread: over the SCALE_POLLS polls; onePoll: every voter on one new poll, as a widely shared link brings them. */
  shape: 'spread' | 'onePoll';
  polls: number;
  /** Ledger entries the folder had still to fold when it was given up on (0: caught up). */
  pendingAfter: number;
  exact: { expected: number; counted: number; mismatches: number };
  /** The reference flows right after, on the same polls and the store as this shape left it. */
  reference: FlowCosts;
}

export interface ScaleResults {
  cores: number;
  shapes: FlowShape[];
  /** Absent when only the flows ran (LOGOVOTE_BENCH_ONLY=scale). */
  bulk?: { votes: number; seconds: number };
  /** Ledger entries the folder had still to fold when each probe after the flows and the bulk load began. */
  pendingAtProbe: number[];
  probes: ScaleProbe[];
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
  /** Each service's own port, where its GET /metrics counts its database commands. */
  servicePorts: Record<string, number>;
  postgresPort: number;
  /**
   * The bench's Lighthouse step, called after the probe on the empty store and after the one at 100 000 votes, before
   * the bulk load. Without it, the flows and their counts alone run: no probes, pages or bulk load.
   */
  measurePages?: (storedVotes: number) => Promise<void>;
  /** The reference server (./reference), and its port for its GET /metrics. */
  reference: WatchedProcess;
  referencePort: number;
  /** Gives polls their twins on the reference server's route. */
  seedReference: (polls: BenchPoll[]) => Promise<void>;
  log: (line: string) => void;
}

/** The votes per poll and logo that `voters` flows and `probes` probes cast, from their schedules alone. */
function expectedCounts(polls: BenchPoll[], voters: number, probes: number): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (key: string, n: number) => counts.set(key, (counts.get(key) ?? 0) + n);
  for (let index = 0; index < voters; index++) {
    const { poll, logoId } = scheduledVote(polls, index);
    add(`${poll.sessionId}/${logoId}`, 1);
  }
  for (let iteration = 0; iteration < (probes > 0 ? PROBE_ITERATIONS : 0); iteration++) {
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
            seat: 0,
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
      const pending = await voteLedger.countPending();
      if (pending === 0 || Date.now() > deadline) return pending;
      await sleep(2000);
    }
  } finally {
    await mongoose.disconnect();
  }
}

/** Each service's database commands so far, from its GET /metrics on loopback. */
async function dbCommands(servicePorts: Record<string, number>): Promise<Record<string, Record<string, number>>> {
  const entries = await Promise.all(
    Object.entries(servicePorts).map(async ([service, port]) => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const counts = [...text.matchAll(/^logovote_db_commands_total\{command="([^"]+)"\} (\d+)$/gm)].map(([, command, n]) => [
        command!,
        Number(n),
      ]);
      return [service, Object.fromEntries(counts) as Record<string, number>] as const;
    }),
  );
  return Object.fromEntries(entries);
}

/** Rows PostgreSQL has read from each table so far, by sequential scans and through indexes. */
function rowsRead(postgresPort: number): Record<string, number> {
  const rows = postgresQuery(postgresPort, 'SELECT relname, seq_tup_read + coalesce(idx_tup_fetch, 0) FROM pg_stat_user_tables');
  return Object.fromEntries(rows.map(([table, n]) => [table!, Number(n)]));
}

/** b less a, key by key (a key new in b counts from 0). */
const difference = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.entries(b).map(([key, n]) => [key, n - (a[key] ?? 0)]));

async function checkCounts(gateway: string, polls: BenchPoll[], expected: Map<string, number>, log: (line: string) => void) {
  const counted = new Map<string, number>();
  for (const poll of polls) {
    for (const [logoId, n] of Object.entries(await voteCounts(gateway, poll.sessionId))) counted.set(`${poll.sessionId}/${logoId}`, n);
  }
  const exact = {
    expected: [...expected.values()].reduce((sum, n) => sum + n, 0),
    counted: [...counted.values()].reduce((sum, n) => sum + n, 0),
    mismatches: [...new Set([...expected.keys(), ...counted.keys()])].filter((key) => (expected.get(key) ?? 0) !== (counted.get(key) ?? 0))
      .length,
  };
  log(`  counts: ${exact.counted} counted, ${exact.expected} expected, ${exact.mismatches} mismatches`);
  return exact;
}

/**
 * Runs `voters` flows through the gateway under `prefix` and counts what they cost: counters are read after
 * PostgreSQL's statistics settled before the flows, and again once `settled` (the folder caught up) after them.
 */
async function measureFlows(
  options: ScaleOptions,
  run: {
    prefix: string;
    polls: BenchPoll[];
    voters: number;
    firstVoter: number;
    processes: WatchedProcess[];
    metricsPorts: Record<string, number>;
  },
  settled: () => Promise<unknown>,
): Promise<FlowCosts> {
  await sleep(STATS_SETTLE_MS);
  const rowsBefore = rowsRead(options.postgresPort);
  const commandsBefore = await dbCommands(run.metricsPorts);
  const cpuBefore = run.processes.map(cpuSeconds);
  const machineBefore = machineBusySeconds();
  const flows = await runVoterFlows({
    baseUrl: `${options.gateway}${run.prefix}`,
    polls: run.polls,
    voters: run.voters,
    concurrency: FLOW_CONCURRENCY,
    firstVoter: run.firstVoter,
  });
  const load = loadavg();
  await settled();
  const cpu = run.processes.map((watched, index) => ({ name: watched.name, seconds: cpuSeconds(watched) - cpuBefore[index]! }));
  const machineCpuSeconds = machineBusySeconds() - machineBefore;
  const commandsAfter = await dbCommands(run.metricsPorts);
  await sleep(STATS_SETTLE_MS);
  const { durations, ...counted } = flows;
  const times = (name: FlowRequest) => ({ p50: percentile(durations[name], 0.5), p95: percentile(durations[name], 0.95) });
  return {
    ...counted,
    requestMs: { session: times('session'), myVote: times('myVote'), vote: times('vote') },
    load,
    cpu,
    machineCpuSeconds,
    dbCommands: Object.fromEntries(
      Object.entries(commandsAfter).map(([service, counts]) => [service, difference(commandsBefore[service] ?? {}, counts)]),
    ),
    rowsRead: difference(rowsBefore, rowsRead(options.postgresPort)),
  };
}

/** The voters' requests come from the bench's own process (./voter-flows). */
const LOAD_GENERATOR: WatchedProcess = { name: 'the bench, running the voters', pid: process.pid, alone: true };

/** Voters so far, over every run: each voter's address and fingerprint are its own. */
let votersSoFar = 0;

/** One shape's voter flows, then as many reference flows (up to REFERENCE_VOTERS) on the same polls. */
async function runShape(
  options: ScaleOptions,
  shape: FlowShape['shape'],
  polls: BenchPoll[],
  voters: number,
): Promise<Omit<FlowShape, 'exact'>> {
  const { log } = options;
  log(`real voter flows through the gateway, ${shape}: ${voters.toLocaleString('en')} voters over ${polls.length} poll(s)`);
  let pendingAfter = 0;
  const firstVoter = votersSoFar;
  votersSoFar += voters;
  const product = await measureFlows(
    options,
    { prefix: '', polls, voters, firstVoter, processes: [...options.processes, LOAD_GENERATOR], metricsPorts: options.servicePorts },
    async () => {
      pendingAfter = await foldersCaughtUp(options.mongoUri);
    },
  );
  log(`  ${product.voters} voters in ${product.seconds.toFixed(0)} s, ${product.failedFlows} failed; ${pendingAfter} votes left to fold`);
  const referenceVoters = Math.min(voters, REFERENCE_VOTERS);
  log(`  the reference flow: ${referenceVoters.toLocaleString('en')} voters`);
  const referenceFirst = votersSoFar;
  votersSoFar += referenceVoters;
  const referenceCosts = await measureFlows(
    options,
    {
      prefix: '/reference',
      polls,
      voters: referenceVoters,
      firstVoter: referenceFirst,
      processes: [...options.processes, options.reference, LOAD_GENERATOR],
      metricsPorts: { reference: options.referencePort },
    },
    async () => undefined,
  );
  log(`  ${referenceCosts.voters} reference flows in ${referenceCosts.seconds.toFixed(0)} s, ${referenceCosts.failedFlows} failed`);
  return { ...product, shape, polls: polls.length, pendingAfter, reference: referenceCosts };
}

export async function runScaleSection(options: ScaleOptions): Promise<ScaleResults> {
  const { polls, outDir, log, measurePages } = options;
  const pollsFile = join(outDir, 'scale-polls.json');
  writeFileSync(pollsFile, JSON.stringify(polls));
  // The second shape's poll is created now, so both shapes' reference twins are written before any flow.
  const onePoll = (await createPolls(options.gateway, 1)).polls;
  await options.seedReference([...polls, ...onePoll]);
  const probes = measurePages ? [await probe(options, 0, 0, pollsFile)] : [];
  await measurePages?.(0);

  const spread = await runShape(options, 'spread', polls, SHAPE_VOTERS);
  if (measurePages) {
    probes.push(await probe(options, 1, spread.voters + PROBE_ITERATIONS, pollsFile));
    await measurePages(spread.voters + PROBE_ITERATIONS);
  }
  const shapes: FlowShape[] = [
    { ...spread, exact: await checkCounts(options.gateway, polls, expectedCounts(polls, spread.voters, probes.length), log) },
  ];

  // One poll: every voter on one new poll, as a widely shared link brings them.
  const shared = await runShape(options, 'onePoll', onePoll, ONE_POLL_VOTERS);
  shapes.push({ ...shared, exact: await checkCounts(options.gateway, onePoll, expectedCounts(onePoll, shared.voters, 0), log) });
  const cores = cpus().length;
  if (!measurePages) return { cores, shapes, pendingAtProbe: [], probes };

  // What is stored now: the flows' voters and the two probes' (counting the stored votes would read them all on FerretDB).
  const stored = spread.voters + shared.voters + 2 * PROBE_ITERATIONS;
  const bulkVotes = Math.max(0, BULK_VOTES - stored);
  log(`writing ${bulkVotes.toLocaleString('en')} more votes with the product's data-access code`);
  const bulkStarted = Date.now();
  await bulkLoad(options, bulkVotes);
  const bulk = { votes: bulkVotes, seconds: (Date.now() - bulkStarted) / 1000 };
  const pendingAtProbe = [spread.pendingAfter, await foldersCaughtUp(options.mongoUri)];
  log(`  ${pendingAtProbe[1]} votes left to fold`);
  probes.push(await probe(options, 2, stored + bulkVotes, pollsFile));
  return { cores, shapes, bulk, pendingAtProbe, probes };
}
