/**
 * The vote storm (votes at rising constant rates through the gateway, against the same storm on the reference
 * server's route, counts checked exact afterwards) and poll creation with four large logos: the full bench's
 * sections, and `LOGOVOTE_BENCH_ONLY=storm`'s.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_LOGO_BYTES } from '@logovote/contracts';
import { loopbackRange, metricValue, runK6, type K6Run } from './k6';
import { writeLargeLogos } from './fixtures';
import { createPolls, voteCounts, type BenchPoll } from './polls';
import { sampleMemory, type MemorySampler, type WatchedProcess } from './processes';

/** The reference storm's rates, votes/s: from well below the reference server's limit to well above it on any machine. */
const REFERENCE_RATES = [25, 50, 100, 150, 200, 300, 400, 600, 800, 1000, 1300];
/** The vote storm's steps, as shares of the reference's sustained rate; the budget is 0.5. */
const STORM_STEPS = [0.05, 0.1, 0.15, 0.2, 0.35, 0.5, 0.65, 0.8, 1, 1.2];
const STORM_STEP_SECONDS = 12;
const STORM_WARM_UP_SECONDS = 5;
const STORM_VUS = 400;
const STORM_POLLS = 4;
/** A pause after each step, so the next one starts on an idle stack. */
const STORM_SETTLE_MS = 2000;
const P95_BUDGET_MS = 100;
const CREATIONS = 8;

export interface StormStep {
  targetRate: number;
  achievedRate: number;
  p50Ms: number;
  p95Ms: number;
  failedRate: number;
  dropped: number;
  sustained: boolean;
}

/** The best sustained step: the highest achieved rate whose p95 stayed under budget. */
export function sustainedVoteRate(steps: StormStep[]): StormStep | undefined {
  return steps.filter((step) => step.sustained).sort((a, b) => b.achievedRate - a.achievedRate)[0];
}

/** A storm step's figures; sustained when p95 is under the budget, under 1 % failed and under 1 % of arrivals dropped. */
function stormStep(run: K6Run, rate: number, seconds: number): StormStep {
  const iterations = metricValue(run, 'iterations', 'count');
  const dropped = metricValue(run, 'dropped_iterations', 'count') || 0;
  const step: StormStep = {
    targetRate: rate,
    achievedRate: iterations / seconds,
    p50Ms: metricValue(run, 'http_req_duration{name:vote}', 'med'),
    p95Ms: metricValue(run, 'http_req_duration{name:vote}', 'p(95)'),
    failedRate: metricValue(run, 'http_req_failed{name:vote}', 'rate'),
    dropped,
    sustained: false,
  };
  step.sustained = step.p95Ms < P95_BUDGET_MS && step.failedRate < 0.01 && dropped <= 0.01 * (iterations + dropped);
  return step;
}

export interface VoteStormOptions {
  gateway: string;
  /** Gives the storm's polls their twins on the reference server's route. */
  seedReference: (polls: BenchPoll[]) => Promise<void>;
  runDir: string;
  outDir: string;
  processes: WatchedProcess[];
  log: (line: string) => void;
}

export interface VoteStormResults {
  /** The same storm on the reference server's route (bench/reference/server.ts), just before. */
  referenceStorm: { steps: StormStep[] };
  storm: { runs: K6Run[]; steps: StormStep[]; stepSeconds: number; vus: number };
  exact: { polls: number; votes: number; expectedVotes: number; mismatches: number; uncertain: number };
  /** The storm's polls, for the sections after it. */
  polls: BenchPoll[];
  csrfCookie: string;
  underStorm: ReturnType<MemorySampler['stop']>;
}

/** Storm steps at `rates`, one after another, until two in a row are not sustained. */
async function stormSteps(rates: number[], run: (index: number, rate: number) => Promise<K6Run>, log: (line: string) => void) {
  const runs: K6Run[] = [];
  const steps: StormStep[] = [];
  for (const [index, rate] of rates.entries()) {
    const stepRun = await run(index, rate);
    const step = stormStep(stepRun, rate, STORM_STEP_SECONDS);
    runs.push(stepRun);
    steps.push(step);
    log(`  ${rate}/s: ${step.achievedRate.toFixed(1)} votes/s, p95 ${step.p95Ms.toFixed(0)} ms${step.sustained ? '' : ' (not sustained)'}`);
    if (steps.length >= 2 && !steps.at(-1)!.sustained && !steps.at(-2)!.sustained) break;
    await sleep(STORM_SETTLE_MS);
  }
  return { runs, steps };
}

export async function runVoteStorm({
  gateway,
  seedReference,
  runDir,
  outDir,
  processes,
  log,
}: VoteStormOptions): Promise<VoteStormResults> {
  const { polls, csrfCookie } = await createPolls(gateway, STORM_POLLS);
  await seedReference(polls);
  const pollsFile = join(runDir, 'storm-polls.json');
  writeFileSync(pollsFile, JSON.stringify(polls));
  const stormRun = (name: string, baseUrl: string, block: number, rate: number, seconds: number) =>
    runK6({
      script: 'vote-storm.js',
      env: {
        BASE_URL: baseUrl,
        RATE: String(rate),
        DURATION: `${seconds}s`,
        VUS: String(STORM_VUS),
        STEP: String(block),
        POLLS_FILE: pollsFile,
        CSRF_COOKIE: csrfCookie,
        P95_BUDGET_MS: String(P95_BUDGET_MS),
      },
      // Each step's voters come from addresses of their own, so no address brings more than a few voters.
      localIps: loopbackRange(block, STORM_VUS),
      outDir: join(outDir, `${name}-${rate}`),
    });

  log(`reference storm (bench/reference/server.ts): steps of ${STORM_STEP_SECONDS} s at ${REFERENCE_RATES.join(', ')} votes/s`);
  const reference = await stormSteps(
    REFERENCE_RATES,
    (index, rate) => stormRun('reference-storm', `${gateway}/reference`, 70 + index, rate, STORM_STEP_SECONDS),
    log,
  );
  const referenceRate = sustainedVoteRate(reference.steps)?.achievedRate ?? REFERENCE_RATES[0]!;
  await sleep(STORM_SETTLE_MS);

  const rates = [...new Set(STORM_STEPS.map((share) => Math.max(1, Math.round(share * referenceRate))))];
  log(`vote storm: steps of ${STORM_STEP_SECONDS} s at ${rates.join(', ')} votes/s, until two in a row are not sustained`);
  const memory = sampleMemory(processes, 1000);
  // A short warm-up at the first rate (connections opened, code optimised by the JIT): its votes count, its figures do not.
  const warmUp = await stormRun('storm-warm-up', gateway, 10, rates[0]!, STORM_WARM_UP_SECONDS);
  await sleep(STORM_SETTLE_MS);
  const { runs: stepRuns, steps } = await stormSteps(
    rates,
    (index, rate) => stormRun(`storm-${index + 1}`, gateway, 11 + index, rate, STORM_STEP_SECONDS),
    log,
  );
  const runs = [warmUp, ...stepRuns];
  const underStorm = memory.stop();
  await sleep(STORM_SETTLE_MS);

  log('checking the counts after the storm');
  const sumOverSteps = (metric: string) => runs.reduce((sum, run) => sum + (metricValue(run, metric, 'count') || 0), 0);
  const counts = await Promise.all(
    polls.map(async (poll, pollIndex) => {
      const counted = await voteCounts(gateway, poll.sessionId);
      return poll.logoIds.map((logoId, logoIndex) => ({
        expected: sumOverSteps(`ballots{poll:${pollIndex},logo:${logoIndex}}`),
        actual: counted[logoId] ?? Number.NaN,
      }));
    }),
  );
  const countRows = counts.flat();
  return {
    referenceStorm: { steps: reference.steps },
    storm: { runs, steps, stepSeconds: STORM_STEP_SECONDS, vus: STORM_VUS },
    exact: {
      polls: polls.length,
      votes: countRows.reduce((sum, row) => sum + row.actual, 0),
      expectedVotes: countRows.reduce((sum, row) => sum + row.expected, 0),
      mismatches: countRows.filter((row) => row.actual !== row.expected).length,
      uncertain: sumOverSteps('ballots_uncertain'),
    },
    polls,
    csrfCookie,
    underStorm,
  };
}

/** Poll creations one after another, each with four logos of the largest size allowed, every moderation check included. */
export async function measureCreation(gateway: string, runDir: string, outDir: string): Promise<{ run: K6Run; sizes: number[] }> {
  const large = await writeLargeLogos(join(runDir, 'large-logos'), MAX_LOGO_BYTES);
  const run = await runK6({
    script: 'create-poll.js',
    env: { BASE_URL: gateway, LOGO_FILES: large.paths.join(','), ITERATIONS: String(CREATIONS) },
    outDir,
  });
  return { run, sizes: large.sizes };
}
