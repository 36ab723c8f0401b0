import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  findFreePort,
  renderNginxConf,
  repoRoot,
  spawnManaged,
  startFerretDB,
  startMailCatcher,
  startMinio,
  startNginx,
  startPostgres,
  postgresUrl,
  stopAll,
  stopOnFailure,
  waitForHttp,
  type ManagedProcess,
} from '@logovote/devstack';
import { copyGatewaySnippets, gatewayLimits, renderGatewayServerConfig, withHarnessRoute, type HarnessRoute } from './gateway-config';
import { htpasswdLine, loadOrCreateSecrets, type StackSecrets } from './secrets';

export const SERVICES = ['sessions', 'votes', 'media', 'notify'] as const;
export type ServiceName = (typeof SERVICES)[number];
export const REMOTES = ['create', 'vote', 'results', 'admin'] as const;
export type RemoteName = (typeof REMOTES)[number];
export type FrontendName = 'shell' | RemoteName;
/** The embedded servers (absent when the environment names an external one). */
export type InfrastructureName = 'postgres' | 'ferretdb' | 'minio' | 'maildev';
export type ComponentName = ServiceName | FrontendName | InfrastructureName | 'gateway';

export interface StackPorts {
  gateway: number;
  services: Record<ServiceName, number>;
  frontends: Record<FrontendName, number>;
  postgres: number;
  mongo: number;
  minio: number;
  minioConsole: number;
  smtp: number;
  mailHttp: number;
}

/** The fixed ports of `npm start`; the README's port table mirrors these. */
export const DEV_PORTS: StackPorts = {
  gateway: 8080,
  services: { sessions: 4001, votes: 4002, media: 4003, notify: 4004 },
  frontends: { shell: 3000, create: 3001, vote: 3002, results: 3003, admin: 3004 },
  postgres: 5433,
  mongo: 27117,
  minio: 9100,
  minioConsole: 9101,
  smtp: 1025,
  mailHttp: 1080,
};

/**
 * Tests take whatever ports are free so they can run beside `npm start` and each other: distinct, held for
 * this process (findFreePort), and none of `npm start`'s.
 */
export async function freePorts(): Promise<StackPorts> {
  const devPorts = new Set(Object.values(DEV_PORTS).flatMap((entry) => (typeof entry === 'number' ? [entry] : Object.values(entry))));
  const next = async (): Promise<number> => {
    for (;;) {
      const port = await findFreePort();
      if (!devPorts.has(port)) return port;
    }
  };
  const free = async <T extends Record<string, number>>(ports: T): Promise<T> => {
    const taken: [string, number][] = [];
    for (const name of Object.keys(ports)) taken.push([name, await next()]);
    return Object.fromEntries(taken) as T;
  };
  const { services, frontends, ...servers } = DEV_PORTS;
  return { ...(await free(servers)), services: await free(services), frontends: await free(frontends) };
}

export interface ObjectStoreTarget {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

/** External servers named by the environment replace the embedded ones. */
export interface ExternalServers {
  mongoUri?: string;
  objectStore?: ObjectStoreTarget;
  smtpUrl?: string;
}

export function externalServersFromEnv(env: NodeJS.ProcessEnv): ExternalServers {
  const external: ExternalServers = {};
  if (env.MONGODB_URI) external.mongoUri = env.MONGODB_URI;
  if (env.S3_ENDPOINT) {
    if (!env.S3_ACCESS_KEY || !env.S3_SECRET_KEY) throw new Error('S3_ENDPOINT is set: S3_ACCESS_KEY and S3_SECRET_KEY are required too');
    external.objectStore = {
      endpoint: env.S3_ENDPOINT,
      accessKey: env.S3_ACCESS_KEY,
      secretKey: env.S3_SECRET_KEY,
      bucket: env.S3_BUCKET ?? 'logovote-logos',
      region: env.S3_REGION ?? 'us-east-1',
    };
  }
  if (env.SMTP_URL) external.smtpUrl = env.SMTP_URL;
  return external;
}

export interface StackOptions {
  /** Holds data, logs, secrets and the generated gateway configuration (gitignored). */
  runDir: string;
  ports: StackPorts;
  external: ExternalServers;
  /** Start from empty databases and buckets (tests). */
  freshData: boolean;
  logLevel: string;
  /** Base environment for secrets and overrides (ADMIN_USER, CSRF_SECRET, ...). */
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** A test harness's own route through the gateway (the bench's reference flow). */
  harnessRoute?: HarnessRoute;
}

export interface Stack {
  gatewayUrl: string;
  mongoUri: string;
  objectStore: ObjectStoreTarget;
  smtpUrl: string;
  /** The embedded mail catcher's HTTP API, when it runs. */
  mailApiUrl: string | undefined;
  secrets: StackSecrets;
  /** The environment every service process gets (tests reuse it to build apps in-process). */
  serviceEnv: NodeJS.ProcessEnv;
  logDir: string;
  startComponent(name: ComponentName): Promise<void>;
  stopComponent(name: ComponentName): Promise<void>;
  stop(): Promise<void>;
}

const FRONTENDS: FrontendName[] = ['shell', ...REMOTES];

/**
 * Whether a JSON answer's `field` is `name`: our server's answer, not another server's on its port (a health answer's
 * `service`, a manifest's federation `name` as mfes/<remote>/rspack.config.ts sets it).
 */
const answersAs =
  (field: string, name: string) =>
  (body: string): boolean => {
    try {
      return (JSON.parse(body) as Record<string, unknown> | null)?.[field] === name;
    } catch {
      return false;
    }
  };

const STATIC_SERVER = join(repoRoot, 'packages', 'static-server', 'dist', 'cli.js');

const LOCAL_OBJECT_STORE_KEYS = { accessKey: 'logovote', secretKey: 'logovote-local-secret' };

/** Per-client limits of the services that a stack's environment may set (README's configuration table); unset, the services' defaults hold. */
const CLIENT_LIMIT_SETTINGS = [
  'POLL_CREATIONS_PER_ADDRESS_PER_HOUR',
  'POLL_CREATIONS_PER_ADDRESS_PER_DAY',
  'NOTIFY_EMAILS_PER_SENDER_PER_HOUR',
  'NOTIFY_EMAILS_PER_RECIPIENT_PER_DAY',
  'UPLOAD_MIN_BYTES_PER_SECOND',
  'UPLOAD_RATE_GRACE_SECONDS',
  'UPLOAD_MAX_SECONDS',
] as const;

export async function startStack(options: StackOptions): Promise<Stack> {
  const { runDir, ports, external, log } = options;
  const dataDir = join(runDir, 'data');
  const logDir = join(runDir, 'logs');
  if (options.freshData) rmSync(dataDir, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const secrets = loadOrCreateSecrets(join(runDir, 'secrets.json'), options.env);

  const processes = new Map<ComponentName, ManagedProcess>();
  // The embedded servers keep their port and data folder from one start to the next, so the fault tests can
  // stop one and bring it back under the running services.
  const infrastructure: Partial<Record<InfrastructureName, () => Promise<ManagedProcess>>> = {};
  if (!external.mongoUri) {
    infrastructure.postgres = () => startPostgres({ port: ports.postgres, dataDir: join(dataDir, 'postgres'), logDir });
    infrastructure.ferretdb = async () =>
      (await startFerretDB({ port: ports.mongo, postgresUrl: postgresUrl(ports.postgres), stateDir: join(dataDir, 'ferretdb'), logDir }))
        .proc;
  }
  if (!external.objectStore) {
    infrastructure.minio = async () =>
      (
        await startMinio({
          port: ports.minio,
          consolePort: ports.minioConsole,
          dataDir: join(dataDir, 'minio'),
          logDir,
          ...LOCAL_OBJECT_STORE_KEYS,
        })
      ).proc;
  }
  if (!external.smtpUrl) {
    infrastructure.maildev = async () => (await startMailCatcher({ smtpPort: ports.smtp, httpPort: ports.mailHttp, logDir })).proc;
  }

  const mongoUri = external.mongoUri ?? `mongodb://127.0.0.1:${ports.mongo}/logovote`;
  const objectStore = external.objectStore ?? {
    endpoint: `http://127.0.0.1:${ports.minio}`,
    ...LOCAL_OBJECT_STORE_KEYS,
    bucket: 'logovote-logos',
    region: 'us-east-1',
  };
  const mailApiUrl = infrastructure.maildev ? `http://127.0.0.1:${ports.mailHttp}` : undefined;
  const smtpUrl = external.smtpUrl ?? `smtp://127.0.0.1:${ports.smtp}`;
  const gatewayUrl = `http://localhost:${ports.gateway}`;

  const serviceEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: options.logLevel,
    MONGODB_URI: mongoUri,
    S3_ENDPOINT: objectStore.endpoint,
    S3_ACCESS_KEY: objectStore.accessKey,
    S3_SECRET_KEY: objectStore.secretKey,
    S3_BUCKET: objectStore.bucket,
    S3_REGION: objectStore.region,
    SMTP_URL: smtpUrl,
    PUBLIC_ORIGIN: gatewayUrl,
    CSRF_SECRET: secrets.csrfSecret,
    IP_HASH_SALT: secrets.ipHashSalt,
    ...Object.fromEntries(CLIENT_LIMIT_SETTINGS.filter((name) => options.env[name] !== undefined).map((name) => [name, options.env[name]])),
  };

  const starters: Partial<Record<ComponentName, () => Promise<ManagedProcess>>> = { ...infrastructure };
  for (const service of SERVICES) {
    starters[service] = async () => {
      const proc = spawnManaged(service, process.execPath, [join(repoRoot, 'services', service, 'dist', 'server.js')], {
        env: { ...serviceEnv, PORT: String(ports.services[service]) },
        logDir,
      });
      const ready = waitForHttp(`http://127.0.0.1:${ports.services[service]}/readyz`, {
        proc,
        timeoutMs: 60_000,
        expectBody: answersAs('service', service),
      });
      await stopOnFailure(proc, ready);
      return proc;
    };
  }
  for (const frontend of FRONTENDS) {
    starters[frontend] = async () => {
      const dir = join(repoRoot, frontend === 'shell' ? 'shells/web' : `mfes/${frontend}`, 'dist');
      const args = [STATIC_SERVER, '--dir', dir, '--port', String(ports.frontends[frontend]), ...(frontend === 'shell' ? ['--spa'] : [])];
      const proc = spawnManaged(`web-${frontend}`, process.execPath, args, { logDir });
      const url = `http://127.0.0.1:${ports.frontends[frontend]}`;
      // A remote's manifest names it; only the shell answers `/` (the remotes are not single-page servers).
      const ready =
        frontend === 'shell'
          ? waitForHttp(`${url}/`, { proc, timeoutMs: 30_000 })
          : waitForHttp(`${url}/mf-manifest.json`, { proc, timeoutMs: 30_000, expectBody: answersAs('name', `logovote_${frontend}`) });
      await stopOnFailure(proc, ready);
      return proc;
    };
  }
  starters.gateway = async () => {
    const gatewayDir = join(runDir, 'gateway');
    mkdirSync(gatewayDir, { recursive: true });
    const htpasswdFile = join(gatewayDir, 'admin.htpasswd');
    writeFileSync(htpasswdFile, htpasswdLine(secrets.adminUser, secrets.adminPassword), { mode: 0o600 });
    const upstream = (port: number) => `127.0.0.1:${port}`;
    const serverConfig = renderGatewayServerConfig({
      GATEWAY_LISTEN: upstream(ports.gateway),
      SHELL_UPSTREAM: upstream(ports.frontends.shell),
      ...Object.fromEntries(SERVICES.map((service) => [`${service.toUpperCase()}_UPSTREAM`, upstream(ports.services[service])])),
      ...Object.fromEntries(
        REMOTES.flatMap((remote) => [
          [`${remote.toUpperCase()}_REMOTE_UPSTREAM`, upstream(ports.frontends[remote])],
          [`${remote.toUpperCase()}_MANIFEST_URL`, `/remotes/${remote}/mf-manifest.json`],
        ]),
      ),
      ADMIN_HTPASSWD_FILE: htpasswdFile,
      ...gatewayLimits(options.env),
    });
    const confPath = join(gatewayDir, 'nginx.conf');
    const routedConfig = options.harnessRoute ? withHarnessRoute(serverConfig, options.harnessRoute) : serverConfig;
    writeFileSync(confPath, renderNginxConf(gatewayDir, routedConfig));
    copyGatewaySnippets(gatewayDir);
    const { proc } = await startNginx({
      prefixDir: gatewayDir,
      confPath,
      logDir,
      readyUrl: `http://127.0.0.1:${ports.gateway}/runtime-config.json`,
    });
    // Each running service answers at its route, under its own name: the gateway's upstreams are this stack's.
    const checkRoutes = async (): Promise<void> => {
      for (const service of SERVICES.filter((name) => processes.has(name))) {
        const url = `http://127.0.0.1:${ports.gateway}/api/health/${service}`;
        await waitForHttp(url, { proc, timeoutMs: 30_000, expectBody: answersAs('service', service) });
      }
    };
    await stopOnFailure(proc, checkRoutes());
    return proc;
  };

  const startComponent = async (name: ComponentName) => {
    if (processes.has(name)) return;
    const starter = starters[name];
    if (!starter) throw new Error(`${name} is not part of this stack: an external server replaces it`);
    processes.set(name, await starter());
  };
  const stopComponent = async (name: ComponentName) => {
    const proc = processes.get(name);
    processes.delete(name);
    await proc?.stop();
  };

  try {
    // Infrastructure first: the services refuse to start without it. FerretDB needs its PostgreSQL.
    if (infrastructure.postgres) await startComponent('postgres');
    await Promise.all((Object.keys(infrastructure) as InfrastructureName[]).map(startComponent));
    if (infrastructure.ferretdb)
      log(`FerretDB      ${mongoUri} (on PostgreSQL ${postgresUrl(ports.postgres)}, data in ${join(dataDir, 'postgres')})`);
    if (infrastructure.minio) log(`MinIO         ${objectStore.endpoint}`);
    if (mailApiUrl) log(`MailDev       smtp://127.0.0.1:${ports.smtp}  web ${mailApiUrl}`);
    await Promise.all([...SERVICES, ...FRONTENDS].map(startComponent));
    await startComponent('gateway');
  } catch (error: unknown) {
    await stopAll();
    throw error;
  }
  log(`Gateway       ${gatewayUrl}`);

  return {
    gatewayUrl,
    mongoUri,
    objectStore,
    smtpUrl,
    mailApiUrl,
    secrets,
    serviceEnv,
    logDir,
    startComponent,
    stopComponent,
    stop: stopAll,
  };
}
