import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFreePort, renderNginxConf, startNginx, type ManagedProcess } from '@logovote/devstack';

/**
 * nginx serving a folder as plain static files, on a free port: the reference the gateway's logo
 * serving is compared with. Same nginx build and the same single worker as the gateway.
 */
export async function startStaticNginx(options: {
  root: string;
  prefixDir: string;
  logDir: string;
}): Promise<{ url: string; proc: ManagedProcess }> {
  const port = await findFreePort();
  mkdirSync(options.prefixDir, { recursive: true });
  const server = [
    'server {',
    `  listen 127.0.0.1:${port};`,
    '  access_log off;',
    '  sendfile on;',
    '  tcp_nopush on;',
    `  location / { root ${options.root}; }`,
    '}',
  ].join('\n');
  const confPath = join(options.prefixDir, 'nginx.conf');
  writeFileSync(confPath, renderNginxConf(options.prefixDir, server));
  const url = `http://127.0.0.1:${port}`;
  const { proc } = await startNginx({
    prefixDir: options.prefixDir,
    confPath,
    logDir: options.logDir,
    readyUrl: `${url}/`,
    expectStatus: (status) => status === 403 || status === 404 || status === 200,
  });
  return { url, proc };
}
