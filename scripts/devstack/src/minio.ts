import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnManaged, stopOnFailure, type ManagedProcess } from './processes';
import { toolPath } from './tools';
import { waitForHttp } from './wait';

export interface StartMinioOptions {
  port: number;
  /** The address it listens on (default 127.0.0.1). */
  host?: string;
  consolePort: number;
  dataDir: string;
  logDir: string;
  accessKey: string;
  secretKey: string;
}

export async function startMinio(o: StartMinioOptions): Promise<{ proc: ManagedProcess; endpoint: string }> {
  // MinIO refuses these at start-up anyway; failing here gives a clearer message.
  if (o.accessKey.length < 3) throw new Error('startMinio: accessKey must be at least 3 characters');
  if (o.secretKey.length < 8) throw new Error('startMinio: secretKey must be at least 8 characters');
  const dataDir = path.resolve(o.dataDir);
  const host = o.host ?? '127.0.0.1';
  fs.mkdirSync(dataDir, { recursive: true });
  const proc = spawnManaged(
    'minio',
    toolPath('minio'),
    ['server', '--address', `${host}:${o.port}`, '--console-address', `127.0.0.1:${o.consolePort}`, dataDir],
    {
      logDir: o.logDir,
      env: {
        ...process.env,
        MINIO_ROOT_USER: o.accessKey,
        MINIO_ROOT_PASSWORD: o.secretKey,
        MINIO_UPDATE: 'off',
        MINIO_BROWSER: 'off',
      },
    },
  );
  const endpoint = `http://${host}:${o.port}`;
  await stopOnFailure(proc, waitForHttp(`${endpoint}/minio/health/live`, { proc, timeoutMs: 60_000 }));
  return { proc, endpoint };
}
