import * as fs from 'node:fs';
import * as path from 'node:path';
import { mongoPing } from './mongoping';
import { spawnManaged, stopOnFailure, type ManagedProcess } from './processes';
import { toolPath } from './tools';
import { waitFor } from './wait';

export interface StartFerretDBOptions {
  port: number;
  /** SQLite files and FerretDB's state.json go here (created if missing). */
  dataDir: string;
  logDir: string;
  timeoutMs?: number;
}

/** FerretDB 1.x with the SQLite backend: a MongoDB-compatible server with no PostgreSQL. */
export async function startFerretDB(o: StartFerretDBOptions): Promise<{ proc: ManagedProcess; uri: string }> {
  const dataDir = path.resolve(o.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const proc = spawnManaged(
    'ferretdb',
    toolPath('ferretdb'),
    [
      '--handler=sqlite',
      // The SQLite URL names a directory: one .sqlite file per database; the trailing slash is required.
      `--sqlite-url=file:${dataDir}/`,
      `--listen-addr=127.0.0.1:${o.port}`,
      `--state-dir=${dataDir}`, // default is the cwd
      '--telemetry=disable',
      '--debug-addr=-', // no metrics/pprof listener (default 127.0.0.1:8088 would clash between instances)
      '--log-level=info',
    ],
    { logDir: o.logDir, cwd: dataDir },
  );
  // Ready = answers a MongoDB ping (not merely accepting TCP).
  const ready = waitFor(`FerretDB ping on 127.0.0.1:${o.port}`, () => mongoPing('127.0.0.1', o.port), {
    proc,
    timeoutMs: o.timeoutMs ?? 60_000,
  });
  await stopOnFailure(proc, ready);
  return { proc, uri: `mongodb://127.0.0.1:${o.port}/` };
}
