/**
 * docker-compose.yml on a real engine: Docker's compose CLI against podman's API socket (a `podman system
 * service` of its own, on a socket in a temporary folder), with deploy/compose.standins.yml for the images that
 * cannot be pulled here. The gateway's port is published on loopback only. Before anything starts, the
 * container bridges' range (the podman configuration's subnet pool) is routed nowhere but to the bridges
 * (a blackhole route below their own), and forwarding from it to anywhere else is dropped; both are removed again
 * by `down`, which also takes the project down with its volumes and netavark's chains (`leftovers` lists what
 * would still be there).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findFreePort, toolPath, repoRoot } from '@logovote/devstack';
import { composeEnvironment, composeFileArgs, podmanPath, run } from '../../scripts/deploy/engine';

export interface ComposeStack {
  project: string;
  gatewayUrl: string;
  admin: { user: string; password: string };
  /** Starts every container (images built beforehand); resolves once every one is healthy or has completed. */
  up(): Promise<void>;
  /** Takes everything down (containers, networks, volumes, the API service, routes and rules). */
  down(): Promise<void>;
  /** What of the project and its safety measures is still on the machine (empty once down). */
  leftovers(): Promise<string[]>;
}

/** The bridges' range: the subnet pool of the podman configuration scripts/install-infra.sh wrote. */
export function bridgePool(): string {
  const conf = readFileSync(join(dirname(realpathSync(podmanPath())), '..', 'containers.conf'), 'utf8');
  const pool = /default_subnet_pools = \[\{ base = "([0-9./]+)"/.exec(conf)?.[1];
  if (!pool) throw new Error('the podman configuration names no default_subnet_pools base');
  return pool;
}

/** The rule that drops what containers on the bridges send anywhere but to the bridges (mangle, before netavark's own rules). */
const forwardRule = (pool: string) => [
  'FORWARD',
  '-s',
  pool,
  '!',
  '-d',
  pool,
  '-m',
  'comment',
  '--comment',
  'logovote-compose',
  '-j',
  'DROP',
];

async function unguardNetwork(pool: string): Promise<void> {
  await run('ip', ['route', 'del', 'blackhole', pool]).catch(() => undefined);
  await run('iptables', ['-w', '-t', 'mangle', '-D', ...forwardRule(pool)]).catch(() => undefined);
}

async function guardNetwork(pool: string): Promise<void> {
  try {
    await run('ip', ['route', 'replace', 'blackhole', pool]);
    await run('iptables', ['-w', '-t', 'mangle', '-I', ...forwardRule(pool)]);
  } catch (error) {
    await unguardNetwork(pool);
    throw error;
  }
}

/**
 * netavark keeps its top-level chains (NETAVARK_FORWARD, NETAVARK-HOSTPORT-*, ...) and the jumps to them after its
 * last network is gone. Once podman has no container and no network of its own left, they go too: first the jumps
 * from the built-in chains, then the chains.
 */
async function removeIdleNetavarkChains(): Promise<void> {
  const containers = await run(podmanPath(), ['ps', '-a', '-q']);
  const networks = (await run(podmanPath(), ['network', 'ls', '--format', '{{.Name}}'])).split('\n').filter(Boolean);
  if (containers.trim() !== '' || networks.some((name) => name !== 'podman')) return;
  for (const table of ['filter', 'nat']) {
    const lines = (await run('iptables-save', ['-t', table])).split('\n');
    const chains = lines.filter((line) => line.startsWith(':NETAVARK')).map((line) => line.slice(1).split(' ')[0]!);
    for (const jump of lines.filter((line) => /^-A [A-Z]+ .*-j NETAVARK/.test(line) && !line.startsWith('-A NETAVARK')))
      // iptables-save quotes its arguments for a shell (comments with spaces).
      await run('bash', ['-c', `iptables -w -t ${table} -D ${jump.slice(3)}`]);
    for (const chain of chains) await run('iptables', ['-w', '-t', table, '-F', chain]);
    for (const chain of chains) await run('iptables', ['-w', '-t', table, '-X', chain]);
  }
}

/** podman's API on a socket of its own, until stopped. */
async function startApiService(dir: string): Promise<{ socket: string; stop(): Promise<void> }> {
  const socket = join(dir, 'podman.sock');
  const service: ChildProcess = spawn(podmanPath(), ['system', 'service', '--time=0', `unix://${socket}`], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => service.once('exit', () => resolve()));
  for (let attempt = 0; !existsSync(socket); attempt += 1) {
    if (service.exitCode !== null || attempt > 300) throw new Error(`podman system service did not open ${socket}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    socket,
    async stop() {
      if (service.exitCode === null) service.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * podman schedules healthchecks with systemd timers, and this machine has no systemd: without them a container's
 * health stays "starting". This runs each running container's healthcheck at its own interval, as the timer
 * (and Docker) would, so compose's health-gated depends_on and --wait see real results.
 */
function runHealthchecks(project: string): { stop(): Promise<void> } {
  let stopped = false;
  // Each container's interval (undefined: it has no healthcheck) and when its next check is due.
  const intervals = new Map<string, number | undefined>();
  const due = new Map<string, number>();
  const intervalOf = async (id: string): Promise<number | undefined> => {
    const inspected = await run(podmanPath(), ['inspect', '--format', '{{json .Config.Healthcheck}}', id]).catch(() => 'null');
    const healthcheck = JSON.parse(inspected) as { Interval?: number } | null;
    // Nanoseconds; Docker's default interval is 30 s.
    return healthcheck ? (healthcheck.Interval || 30e9) / 1e6 : undefined;
  };
  const loop = (async () => {
    while (!stopped) {
      const ids = (await run(podmanPath(), ['ps', '-q', '--filter', `label=com.docker.compose.project=${project}`]).catch(() => ''))
        .split('\n')
        .filter(Boolean);
      const now = Date.now();
      await Promise.all(
        ids.map(async (id) => {
          if (!intervals.has(id)) {
            const interval = await intervalOf(id);
            intervals.set(id, interval);
            // As Docker does, the first check comes one interval after the start.
            if (interval !== undefined) due.set(id, now + interval);
            return;
          }
          const interval = intervals.get(id);
          if (interval === undefined || now < due.get(id)!) return;
          due.set(id, now + interval);
          await run(podmanPath(), ['healthcheck', 'run', id]).catch(() => undefined);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/**
 * docker-compose.yml under a project name of its own, with the network guarded and podman's API started; `up`
 * starts it, and `down` takes everything down again whatever `up` did.
 */
export async function prepareComposeStack(log: (line: string) => void): Promise<ComposeStack> {
  const project = `logovote-compose-${process.pid}`;
  const dir = mkdtempSync(join(tmpdir(), 'logovote-compose-'));
  const port = await findFreePort();
  const admin = { user: 'admin', password: randomBytes(12).toString('hex') };
  const secret = () => randomBytes(24).toString('hex');
  // .env.example with every secret replaced and the gateway published on loopback only.
  const settings: Record<string, string> = {
    GATEWAY_PORT: `127.0.0.1:${port}`,
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    ADMIN_USER: admin.user,
    ADMIN_PASSWORD: admin.password,
    CSRF_SECRET: secret(),
    IP_HASH_SALT: secret(),
    MONGO_ROOT_PASSWORD: secret(),
    MINIO_ROOT_PASSWORD: secret(),
    S3_SECRET_KEY: secret(),
  };
  const envFile = join(dir, '.env');
  const example = readFileSync(join(repoRoot, '.env.example'), 'utf8');
  writeFileSync(
    envFile,
    `${example}\n${Object.entries(settings)
      .map(([name, value]) => `${name}=${value}`)
      .join('\n')}\n`,
  );

  const pool = bridgePool();
  await guardNetwork(pool);
  const api = await startApiService(dir).catch(async (error: unknown) => {
    await unguardNetwork(pool);
    throw error;
  });
  const compose = (args: string[]) =>
    run(toolPath('docker-compose'), ['--project-name', project, ...composeFileArgs(envFile, { standIns: true }), ...args], {
      env: composeEnvironment({ DOCKER_HOST: `unix://${api.socket}` }),
      onLine: (line) => log(`compose: ${line}`),
    });
  const healthchecks = runHealthchecks(project);

  const leftovers = async (): Promise<string[]> => {
    const label = `label=com.docker.compose.project=${project}`;
    const found: string[] = [];
    for (const kind of ['container', 'network', 'volume'] as const) {
      const listed = await run(podmanPath(), [kind, 'ls', ...(kind === 'container' ? ['-a'] : []), '-q', '--filter', label]);
      found.push(
        ...listed
          .split('\n')
          .filter(Boolean)
          .map((id) => `${kind} ${id}`),
      );
    }
    const routes = await run('ip', ['route', 'show', 'root', pool]);
    found.push(
      ...routes
        .split('\n')
        .filter(Boolean)
        .map((route) => `route ${route}`),
    );
    const rules = await run('iptables-save', ['-t', 'mangle']);
    found.push(
      ...rules
        .split('\n')
        .filter((line) => line.includes('logovote-compose'))
        .map((rule) => `iptables ${rule}`),
    );
    return found;
  };

  let isDown = false;
  const down = async () => {
    if (isDown) return;
    isDown = true;
    await compose(['down', '--volumes', '--remove-orphans', '--timeout', '10']).catch((error: unknown) => log(String(error)));
    await healthchecks.stop();
    await api.stop();
    await removeIdleNetavarkChains();
    await unguardNetwork(pool);
    rmSync(dir, { recursive: true, force: true });
  };

  const up = async () => {
    const upAndWait = ['up', '--detach', '--no-build', '--pull', 'never', '--wait', '--wait-timeout', '600'];
    try {
      try {
        await compose(upAndWait);
      } catch (error) {
        // A healthcheck is a timing check: on a host this busy (the kubernetes tier's pods and vote storms alongside)
        // a working server can miss five in a row. Its next passing check makes it healthy again, so compose waits
        // once more; a server that stays broken fails this wait too.
        if (!(error instanceof Error && error.message.includes('is unhealthy'))) throw error;
        log('a container was marked unhealthy: waiting once more for every container to be healthy');
        await compose(upAndWait);
      }
    } catch (error) {
      // The containers' own account of what failed (each line is logged as it comes).
      await compose(['logs', '--no-color', '--tail', '30']).catch(() => '');
      throw error;
    }
  };
  return { project, gatewayUrl: `http://127.0.0.1:${port}`, admin, up, down, leftovers };
}
