/**
 * `npm run bench`: builds (unless LOGOVOTE_SKIP_BUILD=1), starts the whole stack on the embedded
 * servers with fresh data, measures it through the gateway with the k6 scripts of bench/k6 and
 * headless Chromium, and writes docs/performance.md. One bench at a time: it loads the whole machine.
 * LOGOVOTE_BENCH_ONLY=live measures the live results section alone and prints it, leaving the report as it is;
 * LOGOVOTE_BENCH_ONLY=pow does the same for the proof-of-work section, and LOGOVOTE_BENCH_ONLY=storm for the vote
 * storm and poll creation (on the store as the storm leaves it, not after the scale section's million votes), and
 * LOGOVOTE_BENCH_ONLY=scale for the scale section's voter flows in both shapes (no probes, Lighthouse or bulk load), and
 * LOGOVOTE_BENCH_ONLY=logo-kinds for the first load with each kind of logo set (Lighthouse and the slow phone).
 * LOGOVOTE_BENCH_SCALE_VOTERS (default 100000) sets the voters of each of those shapes, smaller for a quick check.
 * The report's prose is in bench/report (Markdown templates that bench/lib/report.ts fills with the figures).
 * Every full run keeps its measurements in .run/bench/results.json; LOGOVOTE_BENCH_RENDER=<that file> writes the
 * report again from them without measuring (for editing those templates).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { ensureInfraInstalled, findFreePort, repoRoot, stopAll, toolPath } from '@logovote/devstack';
import { format, resolveConfig } from 'prettier';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../tests/support/browser';
import { runNpmScript } from '../scripts/lib/build';
import { loopbackRange, runK6, type K6Run } from './lib/k6';
import { measurePageLoad, MOBILE_PROFILE, type PageLoad } from './lib/page-load';
import { LIGHTHOUSE_RUNS, measureLighthouseLevel, type LighthouseLevel } from './lib/lighthouse-levels';
import { measureProofOfWork, type ProofOfWorkResults } from './lib/proof-of-work';
import { findPid, residentBytes, type WatchedProcess } from './lib/processes';
import { measureReadCosts } from './lib/database';
import { createPolls, type BenchPoll } from './lib/polls';
import { seedReferenceTwins, startReferenceServer } from './lib/reference';
import { runLiveSection } from './lib/live';
import { measureLogoKinds } from './lib/logo-kinds';
import { renderLive, renderLogoKinds, renderProofOfWork, renderReport, renderScale, renderStorm, type BenchResults } from './lib/report';
import { measureCreation, runVoteStorm } from './lib/storm';
import { SCALE_POLLS, runScaleSection } from './lib/scale';
import { startStaticNginx } from './lib/static-nginx';
import { SERVICES, freePorts, startStack, type StackPorts } from '../scripts/lib/stack';
import { median } from './lib/stats';

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
    if (!commandLine.includes('bench/bench.ts')) continue;
    throw new Error(`another bench is running (pid ${pid}, ${join(benchDir, entry)}): one at a time`);
  }
}

/** Where the report goes, formatted as the repository formats Markdown (its tables aligned), so the lint accepts it as written. */
async function writeReport(results: BenchResults): Promise<string> {
  const reportPath = join(repoRoot, 'docs', 'performance.md');
  writeFileSync(reportPath, await format(renderReport(results), { ...(await resolveConfig(reportPath)), filepath: reportPath }));
  return reportPath;
}

async function main(): Promise<void> {
  const savedResults = process.env.LOGOVOTE_BENCH_RENDER;
  if (savedResults) {
    log(`report written to ${await writeReport(JSON.parse(readFileSync(savedResults, 'utf8')) as BenchResults)} from ${savedResults}`);
    return;
  }
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
  // The scale section's reference flow goes through the same gateway, under /reference (bench/reference/server.ts).
  const referencePort = await findFreePort();
  log('starting the stack on free ports with fresh data');
  const stack = await startStack({
    runDir,
    ports,
    external: {},
    freshData: true,
    logLevel: 'info',
    env: { ...BENCH_API_RATE, ...BENCH_CREATION_LIMITS },
    log,
    harnessRoute: { prefix: '/reference', port: referencePort },
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
    const reference = await startReferenceServer({ port: referencePort, mongoUri: stack.mongoUri, logDir: stack.logDir });
    const seedReference = (polls: BenchPoll[]) => seedReferenceTwins(stack.mongoUri, polls);
    const stormOptions = { gateway, seedReference, runDir, outDir, processes, log };
    await sleep(5000);
    if (process.env.LOGOVOTE_BENCH_ONLY === 'live') {
      const { polls, csrfCookie } = await createPolls(gateway, 1);
      const live = renderLive(await runLiveSection({ gateway, postgresPort: ports.postgres, poll: polls[0]!, csrfCookie, processes, log }));
      process.stdout.write(`${live.budgetRows.join('\n')}\n\n${live.section}`);
      succeeded = true;
      return;
    }
    if (process.env.LOGOVOTE_BENCH_ONLY === 'pow') {
      log('proof of work: a script solving, and the voting page solving on a slow phone');
      const browser = await launchBrowser();
      try {
        const pow = renderProofOfWork(await measureProofOfWork(proofOfWorkOptions(browser, stack.secrets.ipHashSalt)));
        process.stdout.write(`${pow.budgetRows.join('\n')}\n\n${pow.section}\n${pow.misses.join('\n\n')}\n`);
      } finally {
        await browser.close();
      }
      succeeded = true;
      return;
    }
    if (process.env.LOGOVOTE_BENCH_ONLY === 'storm') {
      const stormResults = await runVoteStorm(stormOptions);
      log('poll creation with four large logos');
      const storm = renderStorm({ ...stormResults, creation: await measureCreation(gateway, runDir, outDir) });
      process.stdout.write(`${storm.budgetRows.join('\n')}\n\n${storm.section}`);
      succeeded = true;
      return;
    }
    const scaleOptions = {
      gateway,
      mongoUri: stack.mongoUri,
      outDir,
      processes,
      servicePorts: ports.services,
      postgresPort: ports.postgres,
      reference,
      referencePort,
      seedReference,
      log,
    };
    if (process.env.LOGOVOTE_BENCH_ONLY === 'scale') {
      const { polls } = await createPolls(gateway, SCALE_POLLS);
      const scale = renderScale(
        await runScaleSection({ ...scaleOptions, polls, adminAuthorization: '', measurePages: async () => undefined, flowsOnly: true }),
      );
      process.stdout.write(`${scale.budgetRows.join('\n')}\n\n${scale.section}`);
      succeeded = true;
      return;
    }
    if (process.env.LOGOVOTE_BENCH_ONLY === 'logo-kinds') {
      const logoKinds = renderLogoKinds(await measureLogoKinds({ gateway, log }));
      process.stdout.write(`${logoKinds.budgetRows.join('\n')}\n\n${logoKinds.misses.join('\n\n')}\n\n${logoKinds.section}`);
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
      ...scaleOptions,
      polls: scalePolls,
      adminAuthorization,
      measurePages: async (storedVotes) => {
        log(`Lighthouse at ${storedVotes.toLocaleString('en')} stored votes: four pages, ${LIGHTHOUSE_RUNS} runs each`);
        const admin = { username: stack.secrets.adminUser, password: stack.secrets.adminPassword };
        lighthouse.push(await measureLighthouseLevel({ gateway, pollId: scalePolls[0]!.sessionId, admin, storedVotes, log }));
      },
    });

    const { referenceStorm, storm, exact, polls, csrfCookie, underStorm } = await runVoteStorm(stormOptions);

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
    const creation = await measureCreation(gateway, runDir, outDir);

    log('first load with each kind of logo set');
    const logoKinds = await measureLogoKinds({ gateway, log });

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
      referenceStorm,
      storm,
      exact,
      readCosts,
      traffic,
      logos: { ...logoRuns, sizes, clients: LOGO_CLIENTS, roundSeconds: LOGO_ROUND_SECONDS },
      creation,
      page: { loads: pageLoads, medianLcpMs: median(pageLoads.map((load) => load.lcpMs)), cpuOnly },
      lighthouse,
      proofOfWork,
      memory: { atRest, underStorm },
      scale,
      live: liveSection,
      logoKinds,
    };
    const resultsPath = join(repoRoot, '.run', 'bench', 'results.json');
    writeFileSync(resultsPath, `${JSON.stringify(results)}\n`);
    log(`report written to ${await writeReport(results)} (${results.durationSeconds.toFixed(0)} s); its measurements in ${resultsPath}`);
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
