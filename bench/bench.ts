/**
 * `npm run bench`: builds (unless LOGOVOTE_SKIP_BUILD=1), starts the whole stack on the embedded
 * servers with fresh data, measures it through the gateway with the k6 scripts of bench/k6 and
 * headless Chromium, writes its figures to docs/performance.json (bench/lib/figures.ts) and renders
 * docs/performance.md from them (bench/lib/report.ts, bench/report.md). One bench at a time: it loads the whole machine.
 * LOGOVOTE_BENCH_ONLY=live measures the live results section alone, LOGOVOTE_BENCH_ONLY=pow the proof of work,
 * LOGOVOTE_BENCH_ONLY=storm the vote storm and poll creation (on the store as the storm leaves it, not after the scale
 * section's million votes), LOGOVOTE_BENCH_ONLY=scale the scale section's voter flows in both shapes (no probes,
 * Lighthouse or bulk load), LOGOVOTE_BENCH_ONLY=logo-kinds the first load with each kind of logo set,
 * LOGOVOTE_BENCH_ONLY=themes the reason-themes engine's CPU time; each writes
 * .run/bench/performance.json and .md instead, leaving docs as they are.
 * LOGOVOTE_BENCH_SCALE_VOTERS (default 100000) sets the voters of each of those shapes, smaller for a quick check.
 * LOGOVOTE_BENCH_RENDER=<a data file> renders docs/performance.md from it without measuring.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
import { measureReasonThemes } from './lib/reason-themes';
import { renderReport, type PerformanceData } from './lib/report';
import * as figures from './lib/figures';
import { measureCreation, runVoteStorm } from './lib/storm';
import { SCALE_POLLS, runScaleSection } from './lib/scale';
import { startStaticNginx } from './lib/static-nginx';
import { SERVICES, freePorts, startStack, type StackPorts } from '../scripts/lib/stack';
import { median } from './lib/stats';

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);
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
  const commandLines: [string, string[], string?][] = [
    ...SERVICES.map((service): [string, string[], string] => [
      service,
      [`services/${service}/dist/server.js`],
      `PORT=${ports.services[service]}`,
    ]),
    ['gateway (nginx)', [join(runDir, 'gateway', 'nginx.conf')]],
    ['FerretDB', [`--listen-addr=127.0.0.1:${ports.mongo}`]],
    ['PostgreSQL', [join(runDir, 'data', 'postgres')]],
    ['MinIO', [`127.0.0.1:${ports.minio}`, 'server']],
  ];
  return commandLines.flatMap(([name, cmdline, env]) => {
    const pid = findPid(cmdline, env);
    return pid === undefined ? [] : [{ name, pid }];
  });
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

/** The data file and the report beside it, formatted as the repository formats JSON and Markdown, so the lint accepts them as written. */
async function writeReport(data: PerformanceData, dir: string): Promise<string> {
  const write = async (path: string, text: string) =>
    writeFileSync(path, await format(text, { ...(await resolveConfig(path)), filepath: path }));
  await write(join(dir, 'performance.json'), JSON.stringify(data));
  await write(join(dir, 'performance.md'), renderReport(data));
  return join(dir, 'performance.md');
}

async function main(): Promise<void> {
  const savedData = process.env.LOGOVOTE_BENCH_RENDER;
  if (savedData) {
    const data = JSON.parse(readFileSync(savedData, 'utf8')) as PerformanceData;
    log(`report written to ${await writeReport(data, join(repoRoot, 'docs'))} from ${savedData}`);
    return;
  }
  const only = process.env.LOGOVOTE_BENCH_ONLY;
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
  /** The run's own figures, once its sections are measured; a section alone goes to .run/bench. */
  const finish = async (sections: figures.Section[]) => {
    clearInterval(loadTimer);
    const run = figures.runSection({
      command: `${only ? `LOGOVOTE_BENCH_ONLY=${only} ` : ''}${skipBuild ? 'LOGOVOTE_SKIP_BUILD=1 ' : ''}npm run bench`,
      date: new Date().toISOString(),
      durationSeconds: (Date.now() - started) / 1000,
      buildSeconds,
      machine: {
        cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}`,
        memoryGiB: totalmem() / 1024 ** 3,
        kernel: release(),
        node: process.version,
        tools: `${command(toolPath('k6'), ['version'])}; ${command(toolPath('nginx'), ['-v'])}; FerretDB ${command(toolPath('ferretdb'), ['--version'])} on PostgreSQL 15`,
      },
      load: {
        atStart: loadAtStart,
        mean: loadSamples.reduce((sum, value) => sum + value, 0) / loadSamples.length,
        max: Math.max(...loadSamples),
        atEnd: loadavg(),
      },
      rateLimits: BENCH_API_RATE,
    });
    const path = await writeReport(
      figures.mergeSections(run, ...sections),
      only ? join(repoRoot, '.run', 'bench') : join(repoRoot, 'docs'),
    );
    log(`report written to ${path} (${((Date.now() - started) / 1000).toFixed(0)} s), its figures beside it in performance.json`);
    succeeded = true;
  };
  const loadTimer = setInterval(() => loadSamples.push(loadavg()[0]!), 5000);
  let succeeded = false;
  try {
    const processes = stackProcesses(ports, runDir);
    const reference = await startReferenceServer({ port: referencePort, mongoUri: stack.mongoUri, logDir: stack.logDir });
    const seedReference = (polls: BenchPoll[]) => seedReferenceTwins(stack.mongoUri, polls);
    const stormOptions = { gateway, seedReference, runDir, outDir, processes, log };
    await sleep(5000);
    if (only === 'live') {
      const { polls, csrfCookie } = await createPolls(gateway, 1);
      await finish([
        figures.liveSection(await runLiveSection({ gateway, postgresPort: ports.postgres, poll: polls[0]!, csrfCookie, processes, log })),
      ]);
      return;
    }
    if (only === 'pow') {
      log('proof of work: a script solving, and the voting page solving on a slow phone');
      const browser = await launchBrowser();
      try {
        await finish([figures.proofOfWorkSection(await measureProofOfWork(proofOfWorkOptions(browser, stack.secrets.ipHashSalt)))]);
      } finally {
        await browser.close();
      }
      return;
    }
    if (only === 'storm') {
      const stormResults = await runVoteStorm(stormOptions);
      log('poll creation with four large logos');
      const creation = await measureCreation(gateway, runDir, outDir);
      await finish([figures.stormSection(stormResults), figures.creationSection(creation), figures.crossedSection([creation.run])]);
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
    if (only === 'scale') {
      const { polls } = await createPolls(gateway, SCALE_POLLS);
      const scale = await runScaleSection({
        ...scaleOptions,
        polls,
        adminAuthorization: '',
      });
      await finish([figures.scaleSection(scale)]);
      return;
    }
    if (only === 'logo-kinds') {
      await finish([figures.logoKindsSection(await measureLogoKinds({ gateway, log }))]);
      return;
    }
    if (only === 'themes') {
      await finish([figures.reasonThemesSection(await measureReasonThemes())]);
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

    log('reason themes: 200 reasons summarised');
    const reasonThemes = await measureReasonThemes();

    const logos = { ...logoRuns, sizes, clients: LOGO_CLIENTS, roundSeconds: LOGO_ROUND_SECONDS };
    await finish([
      figures.scaleSection(scale),
      figures.stormSection({ referenceStorm, storm, exact }),
      figures.readCostsSection(readCosts),
      figures.trafficSection(traffic),
      figures.logosSection(logos),
      figures.creationSection(creation),
      figures.firstLoadSection({ loads: pageLoads, medianLcpMs: median(pageLoads.map((load) => load.lcpMs)), cpuOnly }),
      figures.lighthouseSection(lighthouse),
      figures.logoKindsSection(logoKinds),
      figures.proofOfWorkSection(proofOfWork),
      figures.liveSection(liveSection),
      figures.memorySection({ atRest, underStorm }),
      figures.reasonThemesSection(reasonThemes),
      figures.crossedSection([traffic, ...logos.gateway, ...logos.nginxStatic, creation.run]),
    ]);
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
