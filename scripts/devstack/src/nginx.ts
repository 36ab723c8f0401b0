import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnManaged, stopOnFailure, type ManagedProcess } from './processes';
import { toolPath } from './tools';
import { waitForHttp } from './wait';

// Debian's nginx is compiled with /var/lib/nginx/* temp paths, /var/log/nginx
// access log and /run/nginx.pid; a generated config must override all of them
// so nothing writes outside the prefix (and several instances can coexist).

/** Main-context lines: pid, error log to stderr (captured in our log file), worker user. */
export function nginxMainDirectives(prefixDir: string): string {
  const p = path.resolve(prefixDir);
  const lines = [`pid ${p}/logs/nginx.pid;`, 'error_log stderr notice;'];
  // As root the workers would run as "nobody" and get 403s on files under a
  // private home directory; in a local dev/test server run them as root too.
  if (process.getuid?.() === 0) lines.push('user root;');
  return lines.join('\n') + '\n';
}

/** http-context lines: every *_temp_path and the access log, under <prefixDir>. */
export function nginxTempPathsDirectives(prefixDir: string): string {
  const p = path.resolve(prefixDir);
  return (
    [
      `client_body_temp_path ${p}/tmp/client_body;`,
      `proxy_temp_path ${p}/tmp/proxy;`,
      `fastcgi_temp_path ${p}/tmp/fastcgi;`,
      `uwsgi_temp_path ${p}/tmp/uwsgi;`,
      `scgi_temp_path ${p}/tmp/scgi;`,
      `access_log ${p}/logs/access.log;`,
    ].join('\n') + '\n'
  );
}

/**
 * A complete nginx.conf around `httpBody` (server blocks, upstreams...), with
 * both directive sets above, mime types and one worker of 8 192 connections. Do not put `daemon`
 * in it: startNginx passes `daemon off;` with -g, and nginx rejects duplicates.
 */
export function renderNginxConf(prefixDir: string, httpBody: string): string {
  const indent = (s: string): string =>
    s
      .trimEnd()
      .split('\n')
      .map((l) => (l ? `  ${l}` : l))
      .join('\n');
  return [
    nginxMainDirectives(prefixDir).trimEnd(),
    'worker_processes 1;',
    // Live results hold two connections per open results page (client and upstream): room for 1 000 pages and
    // the rest of the traffic, with the descriptors to match (docs/live-results.md).
    'worker_rlimit_nofile 16384;',
    'events { worker_connections 8192; }',
    'http {',
    indent(nginxTempPathsDirectives(prefixDir)),
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
  timeoutMs?: number;
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
  const waitOpts: Parameters<typeof waitForHttp>[1] = { proc, timeoutMs: o.timeoutMs ?? 30_000 };
  if (o.expectStatus) waitOpts.expectStatus = o.expectStatus;
  await stopOnFailure(proc, waitForHttp(o.readyUrl, waitOpts));
  return { proc };
}
