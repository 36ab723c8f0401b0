import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnManaged, stopOnFailure, type ManagedProcess } from './processes';
import { toolPath } from './tools';
import { waitFor } from './wait';

export interface StartPostgresOptions {
  port: number;
  /** The cluster's data directory (initialised on first start, kept after). */
  dataDir: string;
  logDir: string;
}

/** The superuser the private cluster is made with; FerretDB connects as it, over loopback only. */
export const POSTGRES_USER = 'logovote';
/** The database FerretDB keeps every MongoDB database in (one PostgreSQL schema each). */
export const POSTGRES_DATABASE = 'ferretdb';

/** Connections FerretDB may hold open to the cluster (which allows 200). */
const FERRETDB_POOL_SIZE = 150;

/**
 * How FerretDB reaches the private cluster on `port`. The user goes in PGUSER (postgresEnv), not in the
 * URL, which FerretDB logs: `user@host` reads like an e-mail address to the privacy checks on logs.
 *
 * The pool is larger than FerretDB's 50 because FerretDB 1.24 can deadlock when it is exhausted: a
 * collection or database being created or dropped holds its registry lock while it waits for a
 * connection, and the requests holding every connection wait for that lock. With more connections
 * than our services send requests at once, that wait always ends.
 */
export const postgresUrl = (port: number): string =>
  `postgres://127.0.0.1:${port}/${POSTGRES_DATABASE}?pool_max_conns=${FERRETDB_POOL_SIZE}`;
export const postgresEnv = { PGUSER: POSTGRES_USER };

/**
 * FerretDB 1.x turns a filter such as `{ pollId: 'x' }` into `_jsonb->'pollId' @> '"x"'`, which the
 * btree indexes it creates for MongoDB indexes cannot serve, so every read would scan its table.
 * This event trigger gives each such index a GIN (jsonb_path_ops) companion on the same fields, which
 * PostgreSQL uses for exactly that operator: reads by key or by poll touch only their rows.
 */
const GIN_COMPANIONS_SQL = `
CREATE OR REPLACE FUNCTION logovote_gin_companions() RETURNS event_trigger LANGUAGE plpgsql AS $fn$
DECLARE
  created record;
  field text;
BEGIN
  FOR created IN
    SELECT c.objid, i.indrelid::regclass AS tbl, pg_get_indexdef(c.objid) AS def
    FROM pg_event_trigger_ddl_commands() c JOIN pg_index i ON i.indexrelid = c.objid
    WHERE c.command_tag = 'CREATE INDEX'
  LOOP
    CONTINUE WHEN created.def ILIKE '% USING gin %';
    FOR field IN SELECT DISTINCT m[1] FROM regexp_matches(created.def, '_jsonb -> ''([^'']+)''', 'g') AS m LOOP
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s USING gin ((_jsonb -> %L) jsonb_path_ops)',
        left(md5(created.tbl::text || '/' || field), 20) || '_gin', created.tbl, field);
    END LOOP;
  END LOOP;
END
$fn$;
DROP EVENT TRIGGER IF EXISTS logovote_gin_companions;
CREATE EVENT TRIGGER logovote_gin_companions ON ddl_command_end WHEN TAG IN ('CREATE INDEX')
  EXECUTE FUNCTION logovote_gin_companions();
`;

/** No Unix socket, so stacks never clash. */
const SERVER_SETTINGS = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  max_connections: 200,
  shared_buffers: '256MB',
  logging_collector: 'off',
  // FerretDB passes the field name of a filter as a parameter (`_jsonb->$1 @> $2`), and its driver
  // prepares each statement: after five runs PostgreSQL may switch to a generic plan, which cannot match
  // an expression index on `_jsonb->'field'` and scans the table (on small tables it looks cheaper).
  // Planning with the values every time keeps every lookup on its index.
  plan_cache_mode: 'force_custom_plan',
};

/**
 * PostgreSQL refuses to run as root: when we are root, the cluster belongs to Debian's `postgres`
 * user (or `nobody`), and the server and initdb run as it.
 */
function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = fs.readFileSync('/etc/passwd', 'utf8').split('\n');
  for (const name of ['postgres', 'nobody']) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(':');
    if (fields) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to own the PostgreSQL cluster');
}

function run(tool: Parameters<typeof toolPath>[0], args: string[], owner: ReturnType<typeof clusterOwner>, input?: string): void {
  const result = spawnSync(toolPath(tool), args, { encoding: 'utf8', input, ...owner });
  if (result.status !== 0) {
    throw new Error(
      `${tool} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`,
    );
  }
}

/** Creates the cluster when its data directory is new (a second start reuses it). */
function initCluster(dataDir: string, owner: ReturnType<typeof clusterOwner>): boolean {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return false;
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  fs.mkdirSync(dataDir, { mode: 0o700 });
  if (owner) fs.chownSync(dataDir, owner.uid, owner.gid);
  run('initdb', ['-D', dataDir, '-U', POSTGRES_USER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-instructions'], owner);
  return true;
}

/**
 * A private PostgreSQL cluster (Debian's server) for one stack: its own data directory, listening on 127.0.0.1:port
 * only. Fast shutdown on stop, so connected clients (FerretDB) do not hold it open.
 */
export async function startPostgres(o: StartPostgresOptions): Promise<ManagedProcess> {
  const dataDir = path.resolve(o.dataDir);
  const owner = clusterOwner();
  const created = initCluster(dataDir, owner);
  const proc = spawnManaged(
    'postgres',
    toolPath('postgres'),
    ['-D', dataDir, '-p', String(o.port), ...Object.entries(SERVER_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
    { logDir: o.logDir, ...owner, stopSignal: 'SIGINT' },
  );
  const ready = waitFor(
    `PostgreSQL on 127.0.0.1:${o.port}`,
    async () => run('pg_isready', ['-q', '-h', '127.0.0.1', '-p', String(o.port), '-d', 'postgres', '-U', POSTGRES_USER], undefined),
    { proc, timeoutMs: 60_000 },
  );
  await stopOnFailure(proc, ready);
  if (created) {
    const psql = ['-v', 'ON_ERROR_STOP=1', '-q', '-h', '127.0.0.1', '-p', String(o.port), '-U', POSTGRES_USER];
    run('psql', [...psql, '-d', 'postgres', '-c', `CREATE DATABASE ${POSTGRES_DATABASE}`], undefined);
    run('psql', [...psql, '-d', POSTGRES_DATABASE], undefined, GIN_COMPANIONS_SQL);
  }
  return proc;
}

/** The rows of a query on a running private cluster (FerretDB's tables, their statistics), each split into its columns. */
export function postgresQuery(port: number, sql: string): string[][] {
  const result = spawnSync(toolPath('psql'), ['-h', '127.0.0.1', '-p', String(port), '-d', POSTGRES_DATABASE, '-AtF', '\t', '-c', sql], {
    encoding: 'utf8',
    env: { ...process.env, ...postgresEnv },
  });
  if (result.status !== 0) throw new Error(`psql: ${result.stderr}`);
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}
