/**
 * `npm start`: installs the local servers on first use, builds everything, and runs the whole product
 * on http://localhost:8080 until Ctrl-C. MONGODB_URI, S3_ENDPOINT (+ keys) and SMTP_URL point it at
 * external servers instead of the embedded FerretDB, MinIO and MailDev.
 */
import { join } from 'node:path';
import { ensureInfraInstalled, repoRoot } from '@logovote/devstack';
import { runNpmScript } from './lib/build';
import { DEV_PORTS, externalServersFromEnv, startStack, type Stack } from './lib/stack';

const log = (line: string) => process.stdout.write(`[logovote] ${line}\n`);

async function main(): Promise<void> {
  const external = externalServersFromEnv(process.env);
  const embedded = [
    'nginx',
    ...(external.mongoUri ? [] : ['postgresql', 'ferretdb']),
    ...(external.objectStore ? [] : ['minio']),
    ...(external.smtpUrl ? [] : ['maildev']),
  ];
  log(`checking local servers (${embedded.join(', ')})`);
  ensureInfraInstalled(embedded);
  if (process.env.LOGOVOTE_SKIP_BUILD !== '1') {
    log('building services and front ends');
    runNpmScript('build');
  }
  log('starting');
  const stack: Stack = await startStack({
    runDir: join(repoRoot, '.run', 'dev'),
    ports: DEV_PORTS,
    external,
    freshData: false,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    env: process.env,
    log,
  });
  const url = stack.gatewayUrl;
  process.stdout.write(
    [
      '',
      `LogoVote is running at ${url}`,
      '',
      `  Create a poll     ${url}/`,
      `  Admin             ${url}/admin/polls   user: ${stack.secrets.adminUser}  password: ${stack.secrets.adminPassword}`,
      `  Terms             ${url}/terms`,
      `  Test pages        ${url}/test/moderate  ${url}/test/fingerprint`,
      `  Health            ${url}/api/health/{sessions,votes,media,notify}  (and /api/ready/...)`,
      ...(stack.mailApiUrl ? [`  Caught e-mail     ${stack.mailApiUrl}`] : []),
      `  Logs              ${stack.logDir}`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping every process`);
    stack.stop().then(
      () => {
        log('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log(`error while stopping: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`[logovote] could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
