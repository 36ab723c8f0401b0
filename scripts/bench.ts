/**
 * `npm run bench`: builds (unless LOGOVOTE_SKIP_BUILD=1), starts the whole stack on the embedded
 * servers with fresh data, measures it through the gateway with the k6 scripts of bench/k6 and
 * headless Chromium, and writes docs/performance.md. One bench at a time: it loads the whole machine.
 * LOGOVOTE_BENCH_ONLY=live measures the live results section alone and prints it, leaving the report as it is;
 * LOGOVOTE_BENCH_ONLY=pow does the same for the proof-of-work section.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { ensureInfraInstalled, repoRoot, stopAll, toolPath } from '@logovote/devstack';
import { MAX_LOGO_BYTES } from '@logovote/contracts';
import { format, resolveConfig } from 'prettier';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../tests/support/browser';
import { runNpmScript } from './lib/build';
import { loopbackRange, metricValue, runK6, type K6Run } from './lib/bench-k6';
import { writeLargeLogos } from './lib/bench-fixtures';
import { measurePageLoad, MOBILE_PROFILE, type PageLoad } from './lib/bench-page-load';
import { LIGHTHOUSE_RUNS, measureLighthouseLevel, type LighthouseLevel } from './lib/bench-lighthouse';
import { measureProofOfWork, type ProofOfWorkResults } from './lib/bench-proof-of-work';
import { findPid, residentBytes, sampleMemory, type WatchedProcess } from './lib/bench-processes';
import { measureRawUpsertRate, measureReadCosts, removeRawUpserts } from './lib/bench-database';
import { createPolls } from './lib/bench-polls';
import { runLiveSection } from './lib/bench-live';
import { renderLive, renderProofOfWork, renderReport, type BenchResults, type StormStep } from './lib/bench-report';
import { SCALE_POLLS, runScaleSection } from './lib/bench-scale';
import { startStaticNginx } from './lib/bench-static-nginx';
import { SERVICES, freePorts, startStack, type StackPorts } from './lib/stack';

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The gateway's per-address API rate limit is raised for the bench: the logo-serving comparison runs
 * from one address at thousands of requests per second. Votes still come from many addresses (one per
 * k6 VU) and the votes service keeps its production per-address cap. The limit itself is measured by
 * bench/k6/rate-limit-burst.js.
 */
const BENCH_API_RATE = { API_RATE_LIMIT: '100000r/s', API_RATE_BURST: '100000' };
/** The bench creates all its polls (about 70) from 127.0.0.1: past the product's per-address creation limits. */
const BENCH_CREATION_LIMITS = { POLL_CREATIONS_PER_ADDRESS_PER_HOUR: '100000', POLL_CREATIONS_PER_ADDRESS_PER_DAY: '100000' };
/** The vote storm's steps, as shares of the raw upsert rate; the budget is 0.5. */
const STORM_STEPS = [0.05, 0.1, 0.15, 0.2, 0.35, 0.5, 0.65, 0.8, 1, 1.2];
const STORM_STEP_SECONDS = 12;
const STORM_WARM_UP_SECONDS = 5;
const STORM_VUS = 400;
const STORM_POLLS = 4;
/** A pause after each step, so the next one starts on an idle stack. */
const STORM_SETTLE_MS = 2000;
const P95_BUDGET_MS = 100;
const PAGE_LOADS = 3;
const LOGO_CLIENTS = 32;
const LOGO_ROUNDS = 3;
const LOGO_ROUND_SECONDS = 5;

function command(binary: string, args: string[]): string {
  const result = spawnSync(binary, args, { encoding: 'utf8' });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n')[0] ?? '';
}

function stackProcesses(ports: StackPorts, runDir: string): WatchedProcess[] {
  const found: (WatchedProcess | undefined)[] = [
    ...SERVICES.map((service) => {
      const pid = findPid([`services/${service}/dist/server.js`], `PORT=${ports.services[service]}`);
      return pid === undefined ? undefined : { name: service, pid };
    }),
    ...(
      [
        ['gateway (nginx)', [join(runDir, 'gateway', 'nginx.conf')]],
        ['FerretDB', [`--listen-addr=127.0.0.1:${ports.mongo}`]],
        ['PostgreSQL', [join(runDir, 'data', 'postgres')]],
        ['MinIO', [`127.0.0.1:${ports.minio}`, 'server']],
      ] as const
    ).map(([name, cmdline]) => {
      const pid = findPid([...cmdline]);
      return pid === undefined ? undefined : { name, pid };
    }),
  ];
  return found.filter((entry): entry is WatchedProcess => entry !== undefined);
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Two benches at once would measure each other: refuse while another one's run folder belongs to a live process. */
function refuseIfAnotherBenchRuns(benchDir: string): void {
  if (!existsSync(benchDir)) return;
  for (const entry of readdirSync(benchDir)) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let commandLine = '';
    try {
      commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      // gone: a folder left by a bench that failed
    }
    if (!commandLine.includes('scripts/bench.ts')) continue;
    throw new Error(`another bench is running (pid ${pid}, ${join(benchDir, entry)}): one at a time`);
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  refuseIfAnotherBenchRuns(join(repoRoot, '.run', 'bench'));
  const loadAtStart = loadavg();
  ensureInfraInstalled(['postgresql', 'ferretdb', 'minio', 'maildev', 'nginx', 'chromium', 'k6', 'lighthouse']);
  const skipBuild = process.env.LOGOVOTE_SKIP_BUILD === '1';
  const buildStarted = Date.now();
  if (!skipBuild) {
    log('building');
    runNpmScript('build');
  }
  const buildSeconds = (Date.now() - buildStarted) / 1000;

  const runDir = join(repoRoot, '.run', 'bench', String(process.pid));
  const outDir = join(runDir, 'k6');
  mkdirSync(outDir, { recursive: true });
  const ports = await freePorts();
  log('starting the stack on free ports with fresh data');
  const stack = await startStack({
    runDir,
    ports,
    external: {},
    freshData: true,
    logLevel: 'info',
    env: { ...BENCH_API_RATE, ...BENCH_CREATION_LIMITS },
    log,
  });
  // k6 binds loopback source addresses, so it must reach the gateway by IPv4 address.
  const gateway = `http://127.0.0.1:${ports.gateway}`;
  const proofOfWorkOptions = (browser: Browser, ipHashSalt: string) => ({
    gateway,
    browser,
    logo: readFileSync(join(repoRoot, 'tests', 'fixtures', 'logo-ring.png')),
    ipHashSalt,
    log,
  });
  const loadSamples: number[] = [];
  const loadTimer = setInterval(() => loadSamples.push(loadavg()[0]!), 5000);
  let succeeded = false;
  try {
    const processes = stackProcesses(ports, runDir);
    await sleep(5000);
    if (process.env.LOGOVOTE_BENCH_ONLY === 'live') {
      const { polls, csrfCookie } = await createPolls(gateway, 1);
      const live = renderLive(await runLiveSection({ gateway, postgresPort: ports.postgres, poll: polls[0]!, csrfCookie, processes, log }));
      process.stdout.write(`${live.budgetRows.map((row) => `| ${row.join(' | ')} |`).join('\n')}\n\n${live.section}`);
      succeeded = true;
      return;
    }
    if (process.env.LOGOVOTE_BENCH_ONLY === 'pow') {
      log('proof of work: a script solving, and the voting page solving on a slow phone');
      const browser = await launchBrowser();
      try {
        const pow = renderProofOfWork(await measureProofOfWork(proofOfWorkOptions(browser, stack.secrets.ipHashSalt)));
        process.stdout.write(
          `${pow.budgetRows.map((row) => `| ${row.join(' | ')} |`).join('\n')}\n\n${pow.section}\n${pow.misses.join('\n\n')}\n`,
        );
      } finally {
        await browser.close();
      }
      succeeded = true;
      return;
    }
    const atRest = Object.fromEntries(processes.map(({ name, pid }) => [name, residentBytes(pid)]));

    // First, on the empty store: the hot paths at 0, 100 000 and 1 000 000 stored votes, and Lighthouse on the
    // pages of the first poll at 0 and 100 000. Every later section then runs with a million votes stored.
    log('scale: creating the polls');
    const scalePolls = (await createPolls(gateway, SCALE_POLLS)).polls;
    const adminAuthorization = `Basic ${Buffer.from(`${stack.secrets.adminUser}:${stack.secrets.adminPassword}`).toString('base64')}`;
    const lighthouse: LighthouseLevel[] = [];
    const scale = await runScaleSection({
      gateway,
      mongoUri: stack.mongoUri,
      polls: scalePolls,
      adminAuthorization,
      outDir,
      processes,
      measurePages: async (storedVotes) => {
        log(`Lighthouse at ${storedVotes.toLocaleString('en')} stored votes: four pages, ${LIGHTHOUSE_RUNS} runs each`);
        const admin = { username: stack.secrets.adminUser, password: stack.secrets.adminPassword };
        lighthouse.push(await measureLighthouseLevel({ gateway, pollId: scalePolls[0]!.sessionId, admin, storedVotes, log }));
      },
      log,
    });

    // The raw upserts go into the votes collection itself, before the storm and after it: on FerretDB a
    // write costs in proportion to the collection, so the reference must see the sizes the storm sees.
    const poolSize = Number(new URL(stack.mongoUri).searchParams.get('maxPoolSize') ?? 10);
    const rawPollId = `bench-raw-upserts-${process.pid}`;
    const measureRaw = async (when: string) => {
      log(`raw upsert rate of the database (driver level), ${when}`);
      const result = await measureRawUpsertRate({
        mongoUri: stack.mongoUri,
        pollId: rawPollId,
        seconds: 10,
        concurrency: poolSize,
        changeRatio: 0.25,
      });
      log(`  ${result.perSecond.toFixed(0)} upserts/s (p95 ${result.p95Ms.toFixed(1)} ms) with ${result.collectionSize} votes stored`);
      return result;
    };
    const rawBefore = await measureRaw('before the storm');

    const rates = [...new Set(STORM_STEPS.map((share) => Math.max(1, Math.round(share * rawBefore.perSecond))))];
    const { polls, csrfCookie } = await createPolls(gateway, STORM_POLLS);
    const pollsFile = join(runDir, 'storm-polls.json');
    writeFileSync(pollsFile, JSON.stringify(polls));
    log(`vote storm: steps of ${STORM_STEP_SECONDS} s at ${rates.join(', ')} votes/s, until two in a row are not sustained`);
    const memory = sampleMemory(processes, 1000);
    const stormRun = (step: number, rate: number, seconds: number) =>
      runK6({
        script: 'vote-storm.js',
        env: {
          BASE_URL: gateway,
          RATE: String(rate),
          DURATION: `${seconds}s`,
          VUS: String(STORM_VUS),
          STEP: String(step),
          POLLS_FILE: pollsFile,
          CSRF_COOKIE: csrfCookie,
          P95_BUDGET_MS: String(P95_BUDGET_MS),
        },
        // Each step's voters come from addresses of their own, so no address ever holds more voters than the cap.
        localIps: loopbackRange(10 + step, STORM_VUS),
        outDir: join(outDir, `storm-${step}-${rate}`),
      });
    // A short warm-up at the first rate (connections opened, code optimised by the JIT): its votes count, its figures do not.
    const stormRuns: K6Run[] = [await stormRun(0, rates[0]!, STORM_WARM_UP_SECONDS)];
    await sleep(STORM_SETTLE_MS);
    const steps: StormStep[] = [];
    for (const [index, rate] of rates.entries()) {
      const run = await stormRun(index + 1, rate, STORM_STEP_SECONDS);
      const step = stormStep(run, rate, STORM_STEP_SECONDS);
      stormRuns.push(run);
      steps.push(step);
      log(
        `  ${rate}/s: ${step.achievedRate.toFixed(1)} votes/s, p95 ${step.p95Ms.toFixed(0)} ms${step.sustained ? '' : ' (not sustained)'}`,
      );
      if (steps.length >= 2 && !steps.at(-1)!.sustained && !steps.at(-2)!.sustained) break;
      await sleep(STORM_SETTLE_MS);
    }
    const underStorm = memory.stop();
    await sleep(STORM_SETTLE_MS);
    const rawAfter = await measureRaw('after the storm');
    await removeRawUpserts(stack.mongoUri, rawPollId);

    log('checking the counts after the storm');
    const sumOverSteps = (metric: string) => stormRuns.reduce((sum, run) => sum + (metricValue(run, metric, 'count') || 0), 0);
    const counts = await Promise.all(
      polls.map(async (poll, pollIndex) => {
        const session = (await (await fetch(`${gateway}/api/sessions/${poll.sessionId}`)).json()) as {
          logos: { id: string; voteCount: number }[];
        };
        return poll.logoIds.map((logoId, logoIndex) => ({
          expected: sumOverSteps(`ballots{poll:${pollIndex},logo:${logoIndex}}`),
          actual: session.logos.find((logo) => logo.id === logoId)?.voteCount ?? Number.NaN,
        }));
      }),
    );
    const countRows = counts.flat();
    const exact = {
      polls: polls.length,
      votes: countRows.reduce((sum, row) => sum + row.actual, 0),
      expectedVotes: countRows.reduce((sum, row) => sum + row.expected, 0),
      mismatches: countRows.filter((row) => row.actual !== row.expected).length,
      uncertain: sumOverSteps('ballots_uncertain'),
    };

    const readCosts = await measureReadCosts(stack.mongoUri, polls[0]!.sessionId);
    log(`  ${readCosts.votes} votes stored; counts of one poll take ${readCosts.countsMs.toFixed(0)} ms`);

    log('mixed voter traffic');
    const traffic = await runK6({
      script: 'voter-traffic.js',
      env: { BASE_URL: gateway, RATE: '10', DURATION: '20s', VUS: '100' },
      localIps: loopbackRange(2, 100),
      outDir,
    });

    const liveSection = await runLiveSection({ gateway, postgresPort: ports.postgres, poll: polls[0]!, csrfCookie, processes, log });

    log('logo serving: gateway and nginx static');
    const poll = polls[0]!;
    const staticRoot = join(runDir, 'static-logos');
    mkdirSync(staticRoot, { recursive: true });
    const sizes: number[] = [];
    for (const filename of poll.filenames) {
      const bytes = Buffer.from(await (await fetch(`${gateway}/api/logos/${filename}`)).arrayBuffer());
      writeFileSync(join(staticRoot, filename), bytes);
      sizes.push(bytes.length);
    }
    const staticNginx = await startStaticNginx({ root: staticRoot, prefixDir: join(runDir, 'static-nginx'), logDir: stack.logDir });
    // Alternating short rounds, so that whatever else the shared machine does weighs on both alike.
    const logoRuns: Record<'gateway' | 'nginxStatic', K6Run[]> = { gateway: [], nginxStatic: [] };
    for (let round = 1; round <= LOGO_ROUNDS; round++) {
      for (const [target, base] of [
        ['gateway', `${gateway}/api/logos`],
        ['nginxStatic', staticNginx.url],
      ] as const) {
        logoRuns[target].push(
          await runK6({
            script: 'logo-serving.js',
            env: {
              IMAGE_URLS: poll.filenames.map((filename) => `${base}/${filename}`).join(','),
              IMAGE_BYTES: sizes.join(','),
              VUS: String(LOGO_CLIENTS),
              DURATION: `${LOGO_ROUND_SECONDS}s`,
            },
            outDir: join(outDir, `logos-${target}-${round}`),
          }),
        );
      }
    }
    await staticNginx.proc.stop();

    log('poll creation with four large logos');
    const large = await writeLargeLogos(join(runDir, 'large-logos'), MAX_LOGO_BYTES);
    const creation = await runK6({
      script: 'create-poll.js',
      env: { BASE_URL: gateway, LOGO_FILES: large.paths.join(','), ITERATIONS: '8' },
      outDir,
    });

    log(`voting page first load, ${PAGE_LOADS} times (${MOBILE_PROFILE.name})`);
    const browser = await launchBrowser();
    const pageLoads: PageLoad[] = [];
    let cpuOnly: PageLoad;
    let proofOfWork: ProofOfWorkResults;
    try {
      for (let i = 0; i < PAGE_LOADS; i++) pageLoads.push(await measurePageLoad(browser, `${gateway}/vote/${poll.sessionId}`));
      // The same page with the CPU slowdown alone: what the network costs, by difference.
      cpuOnly = await measurePageLoad(browser, `${gateway}/vote/${poll.sessionId}`, { network: false });
      log('proof of work: a script solving, and the voting page solving on a slow phone');
      proofOfWork = await measureProofOfWork(proofOfWorkOptions(browser, stack.secrets.ipHashSalt));
    } finally {
      await browser.close();
    }

    clearInterval(loadTimer);
    const results: BenchResults = {
      machine: {
        cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`,
        memoryGiB: totalmem() / 1024 ** 3,
        kernel: release(),
        node: process.version,
        k6: command(toolPath('k6'), ['version']),
        nginx: command(toolPath('nginx'), ['-v']),
        ferretdb: command(toolPath('ferretdb'), ['--version']),
        loadAtStart,
        loadDuring: { max: Math.max(...loadSamples), mean: loadSamples.reduce((sum, value) => sum + value, 0) / loadSamples.length },
        loadAtEnd: loadavg(),
      },
      command: `${skipBuild ? 'LOGOVOTE_SKIP_BUILD=1 ' : ''}npm run bench`,
      date: new Date().toISOString(),
      durationSeconds: (Date.now() - started) / 1000,
      buildSeconds,
      rateLimits: BENCH_API_RATE,
      raw: { before: rawBefore, after: rawAfter },
      storm: { runs: stormRuns, steps, stepSeconds: STORM_STEP_SECONDS, vus: STORM_VUS },
      exact,
      readCosts,
      traffic,
      logos: { ...logoRuns, sizes, clients: LOGO_CLIENTS, roundSeconds: LOGO_ROUND_SECONDS },
      creation: { run: creation, sizes: large.sizes },
      page: { loads: pageLoads, medianLcpMs: median(pageLoads.map((load) => load.lcpMs)), cpuOnly },
      lighthouse,
      proofOfWork,
      memory: { atRest, underStorm },
      scale,
      live: liveSection,
    };
    const reportPath = join(repoRoot, 'docs', 'performance.md');
    // Formatted as the repository formats Markdown (its tables aligned), so the lint accepts it as written.
    writeFileSync(reportPath, await format(renderReport(results), { ...(await resolveConfig(reportPath)), filepath: reportPath }));
    log(`report written to ${reportPath} (${results.durationSeconds.toFixed(0)} s)`);
    succeeded = true;
  } finally {
    clearInterval(loadTimer);
    await stack.stop();
    await stopAll();
    if (succeeded) rmSync(runDir, { recursive: true, force: true });
    else log(`logs and k6 output are kept in ${runDir}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`[bench] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
