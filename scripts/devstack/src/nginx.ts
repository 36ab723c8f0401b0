import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnManaged, stopOnFailure, type ManagedProcess } from './processes';
import { toolPath } from './tools';
import { waitForHttp } from './wait';

/**
 * A complete nginx.conf around `httpBody` (server blocks, upstreams...): one worker of 8 192 connections, mime types,
 * and the pid, temp paths and logs under `prefixDir`: Debian's nginx is compiled with /var/lib/nginx, /var/log/nginx
 * and /run/nginx.pid, and several instances must coexist. No `daemon` in it: startNginx passes `daemon off;` with -g,
 * and nginx rejects duplicates.
 */
export function renderNginxConf(prefixDir: string, httpBody: string): string {
  const p = path.resolve(prefixDir);
  const indent = (s: string): string =>
    s
      .trimEnd()
      .split('\n')
      .map((l) => (l ? `  ${l}` : l))
      .join('\n');
  return [
    `pid ${p}/logs/nginx.pid;`,
    'error_log stderr notice;',
    // As root the workers would run as "nobody" and get 403s on files under a private home directory.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    // Live results hold two connections per open results page (client and upstream): room for 1 000 pages and
    // the rest of the traffic, with the descriptors to match (docs/live-results.md).
    'worker_rlimit_nofile 16384;',
    'events { worker_connections 8192; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((temp) => `  ${temp}_temp_path ${p}/tmp/${temp};`),
    `  access_log ${p}/logs/access.log;`,
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    indent(httpBody),
    '}',
    '',
  ].join('\n');
}

export interface StartNginxOptions {
  prefixDir: string;
  confPath: string;
  logDir: string;
  /** Polled until it answers (200-399 unless expectStatus says otherwise). */
  readyUrl: string;
  expectStatus?: (status: number) => boolean;
}

export async function startNginx(o: StartNginxOptions): Promise<{ proc: ManagedProcess }> {
  const prefix = path.resolve(o.prefixDir);
  fs.mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  fs.mkdirSync(path.join(prefix, 'tmp'), { recursive: true });
  const nginx = toolPath('nginx');
  // -e stderr: nginx opens its compiled-in error log before reading the config.
  const args = ['-p', `${prefix}/`, '-c', path.resolve(o.confPath), '-e', 'stderr', '-g', 'daemon off;'];
  // Validate first: a config error then surfaces as a thrown message, not a timeout.
  const test = spawnSync(nginx, [...args, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) {
    throw new Error(`nginx config test failed for ${o.confPath}:\n${test.stderr || test.stdout || String(test.error)}`);
  }
  const proc = spawnManaged('nginx', nginx, args, { logDir: o.logDir, cwd: prefix });
  await stopOnFailure(proc, waitForHttp(o.readyUrl, { proc, timeoutMs: 30_000, expectStatus: o.expectStatus }));
  return { proc };
}
