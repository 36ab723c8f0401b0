import * as fs from 'node:fs';
import * as path from 'node:path';
import { MongoClient } from 'mongodb';
import { postgresEnv } from './postgres';
import { spawnManaged, stopOnFailure, type ManagedProcess } from './processes';
import { toolPath } from './tools';
import { waitFor } from './wait';

export interface StartFerretDBOptions {
  port: number;
  /** The address it listens on (default 127.0.0.1). */
  host?: string;
  /** The PostgreSQL FerretDB keeps its data in (startPostgres's url). */
  postgresUrl: string;
  /** FerretDB's state.json goes here (created if missing). */
  stateDir: string;
  logDir: string;
}

/** Ready means it answers a MongoDB `ping` through the real driver (not merely accepting TCP). */
export async function mongoPing(uri: string): Promise<void> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 2000, connectTimeoutMS: 2000, directConnection: true });
  try {
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close();
  }
}

/** FerretDB 1.x on PostgreSQL: a MongoDB-compatible server over the stack's private cluster. */
export async function startFerretDB(o: StartFerretDBOptions): Promise<{ proc: ManagedProcess; uri: string }> {
  const stateDir = path.resolve(o.stateDir);
  const host = o.host ?? '127.0.0.1';
  fs.mkdirSync(stateDir, { recursive: true });
  const proc = spawnManaged(
    'ferretdb',
    toolPath('ferretdb'),
    [
      '--handler=postgresql',
      `--postgresql-url=${o.postgresUrl}`,
      `--listen-addr=${host}:${o.port}`,
      `--state-dir=${stateDir}`, // default is the cwd
      '--telemetry=disable',
      '--debug-addr=-', // no metrics/pprof listener (default 127.0.0.1:8088 would clash between instances)
      '--log-level=info',
    ],
    { logDir: o.logDir, cwd: stateDir, env: { ...process.env, ...postgresEnv } },
  );
  const uri = `mongodb://${host}:${o.port}/`;
  const ready = waitFor(`FerretDB ping on ${host}:${o.port}`, () => mongoPing(uri), { proc, timeoutMs: 60_000 });
  await stopOnFailure(proc, ready);
  return { proc, uri };
}
