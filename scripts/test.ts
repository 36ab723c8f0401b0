/**
 * `npm test`: installs every server and tool its projects need on first use, builds, checks types and lint, starts the
 * whole stack on free loopback ports with fresh data, and runs every jest project against it.
 * Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ensureInfraInstalled, installInfraAside, repoRoot } from '@logovote/devstack';
import type { TestStackEnv } from '../tests/support/stack-env';
import { STACK_ENV_VAR, TEST_STACK_LIMITS } from '../tests/support/stack-env';
import { runNpmScript } from './lib/build';
import { freePorts, startStack } from './lib/stack';
import { readSysctl, writeSysctl } from './lib/sysctl';
import { TEST_TOOLS } from './lib/test-tools';

const log = (line: string) => process.stdout.write(`[test] ${line}\n`);
const SLOWEST_SUITES_SHOWN = 10;
/**
 * The compose tier's podman networks and the kubernetes tier's cluster both turn forwarding on, side by side;
 * each puts back what it found, so the one that started second would put back the first one's setting. The run
 * puts back what the machine had before either.
 */
const FORWARDING = 'net.ipv4.ip_forward';

function restoreForwarding(before: string | undefined): void {
  if (before === undefined || readSysctl(FORWARDING) === before) return;
  try {
    writeSysctl(FORWARDING, before);
    log(`${FORWARDING} put back to ${before}`);
  } catch (error) {
    log(`${FORWARDING} could not be put back to ${before}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function main(): Promise<number> {
  const jestArgs = process.argv.slice(2);
  const forwardingBefore = readSysctl(FORWARDING);
  log("checking the stack's servers");
  ensureInfraInstalled(TEST_TOOLS.stack);
  // A folder per run, so two runs (two developers' terminals) never share data or ports.
  const runDir = join(repoRoot, '.run', 'test', String(process.pid));
  // Cold, the other tiers' tools take half an hour of Go builds on 2 cores: they build on the CPU the build,
  // the checks and the first projects leave idle, one install after the other, the cluster's last.
  const asideLog = join(runDir, 'tools.log');
  log(`installing the deploy, compose and kubernetes tiers' tools beside the rest, when missing (log: ${asideLog})`);
  const toolsBeforeProjects = settled(installInfraAside(TEST_TOOLS.beforeProjects, asideLog));
  const clusterTools = toolsBeforeProjects.then((failure) => failure ?? settled(installInfraAside(TEST_TOOLS.cluster, asideLog)));
  if (process.env.LOGOVOTE_SKIP_BUILD === '1') {
    log('LOGOVOTE_SKIP_BUILD=1: using the existing build, skipping type-check and lint');
  } else {
    log('building');
    runNpmScript('build');
    log('type-checking and linting');
    runNpmScript('typecheck');
    runNpmScript('lint');
  }

  log("waiting for the deploy and compose tiers' tools");
  const toolsFailure = await toolsBeforeProjects;
  if (toolsFailure) throw toolsFailure;

  log('starting the stack on free ports');
  const ports = await freePorts();
  const stack = await startStack({
    runDir,
    ports,
    external: {},
    freshData: true,
    logLevel: 'warn',
    env: TEST_STACK_LIMITS,
    log,
  });
  let status = 1;
  try {
    const env: TestStackEnv = {
      gatewayUrl: stack.gatewayUrl,
      mongoUri: stack.mongoUri,
      postgresPort: ports.postgres,
      s3: stack.objectStore,
      smtpUrl: stack.smtpUrl,
      mailApiUrl: stack.mailApiUrl ?? '',
      admin: { user: stack.secrets.adminUser, password: stack.secrets.adminPassword },
    };
    const resultsFile = join(runDir, 'jest-results.json');
    rmSync(resultsFile, { force: true });
    const jestBin = join(repoRoot, 'node_modules', 'jest', 'bin', 'jest.js');
    const jest = spawn(process.execPath, [jestBin, '--json', `--outputFile=${resultsFile}`, ...jestArgs], {
      cwd: repoRoot,
      stdio: 'inherit',
      env: {
        ...process.env,
        [STACK_ENV_VAR]: JSON.stringify(env),
        CSRF_SECRET: stack.secrets.csrfSecret,
        IP_HASH_SALT: stack.secrets.ipHashSalt,
      },
    });
    status = await new Promise<number>((resolve) => jest.on('exit', (code) => resolve(code ?? 1)));
    printSummary(resultsFile);
    const clusterToolsFailure = await clusterTools;
    if (clusterToolsFailure) {
      log(clusterToolsFailure.message);
      status = 1;
    }
    return status;
  } finally {
    await stack.stop();
    restoreForwarding(forwardingBefore);
    if (status === 0) rmSync(runDir, { recursive: true, force: true });
    else log(`the servers' logs are kept in ${stack.logDir}`);
  }
}

/**
 * A plain closing line ('N passed, N failed, N skipped') that CI reads whatever the runner, after the slowest suites
 * with when each started: where a run's time went, on a machine whose timings are kept nowhere else.
 */
function printSummary(resultsFile: string): void {
  if (!existsSync(resultsFile)) return;
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    startTime: number;
    testResults: { name: string; startTime: number; endTime: number }[];
  };
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
  const slowest = [...results.testResults]
    .sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime))
    .slice(0, SLOWEST_SUITES_SHOWN);
  process.stdout.write('\nslowest suites (duration, started after):\n');
  for (const suite of slowest) {
    const name = relative(repoRoot, suite.name);
    process.stdout.write(`  ${seconds(suite.endTime - suite.startTime)}\t${seconds(suite.startTime - results.startTime)}\t${name}\n`);
  }
  process.stdout.write(`\njest: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${results.numPendingTests} skipped\n`);
}

/** The error a promise rejects with, or undefined once it resolves: awaited later, never unhandled. */
const settled = (pending: Promise<void>): Promise<Error | undefined> =>
  pending.then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[test] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
