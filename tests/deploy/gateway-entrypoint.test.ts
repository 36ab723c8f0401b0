/**
 * gateway/docker-entrypoint.d/40-logovote-htpasswd.sh, the step that turns ADMIN_USER and ADMIN_PASSWORD into
 * the gateway's basic-auth file when the nginx image starts (compose and Helm): run with a POSIX sh, its output
 * must let the right credentials through a real nginx and keep wrong ones out.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort, renderNginxConf, startNginx, type ManagedProcess } from '@logovote/devstack';
import { repoRoot, tool } from './support';

const script = join(repoRoot, 'gateway', 'docker-entrypoint.d', '40-logovote-htpasswd.sh');
const password = 'correct horse: battery $taple "quoted" é';

let dir: string;
let nginx: ManagedProcess | undefined;
let url: string;

function runScript(env: Record<string, string>) {
  return spawnSync('sh', [script], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
}

beforeAll(async () => {
  tool('nginx');
  dir = mkdtempSync(join(tmpdir(), 'logovote-htpasswd-'));
  const htpasswd = join(dir, 'auth', 'admin.htpasswd');
  const result = runScript({ ADMIN_USER: 'admin', ADMIN_PASSWORD: password, ADMIN_HTPASSWD_FILE: htpasswd });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  const port = await findFreePort();
  url = `http://127.0.0.1:${port}/`;
  mkdirSync(join(dir, 'www'));
  writeFileSync(join(dir, 'www', 'index.html'), 'in');
  const confPath = join(dir, 'nginx.conf');
  writeFileSync(
    confPath,
    renderNginxConf(
      dir,
      // A file, not `return`: nginx answers a return before it checks access.
      `server {\n  listen 127.0.0.1:${port};\n  root ${join(dir, 'www')};\n  location / {\n    auth_basic "LogoVote admin";\n    auth_basic_user_file ${htpasswd};\n  }\n}\n`,
    ),
  );
  ({ proc: nginx } = await startNginx({ prefixDir: dir, confPath, logDir: dir, readyUrl: url, expectStatus: (status) => status === 401 }));
}, 30_000);

afterAll(async () => {
  await nginx?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const basic = (user: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` });

describe('the gateway basic-auth entrypoint script', () => {
  it('writes one salted SHA-1 line, readable by its owner only', () => {
    const file = join(dir, 'auth', 'admin.htpasswd');
    expect(readFileSync(file, 'utf8')).toMatch(/^admin:\{SSHA\}[A-Za-z0-9+/]+=*\n$/);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('lets the admin in through nginx, and nobody else', async () => {
    expect((await fetch(url, { headers: basic('admin', password) })).status).toBe(200);
    expect((await fetch(url, { headers: basic('admin', `${password}x`) })).status).toBe(401);
    expect((await fetch(url, { headers: basic('root', password) })).status).toBe(401);
    expect((await fetch(url)).status).toBe(401);
  });

  it('refuses to start the gateway without credentials or with an unusable user name', () => {
    const file = join(dir, 'other.htpasswd');
    const missing = runScript({ ADMIN_USER: 'admin', ADMIN_HTPASSWD_FILE: file });
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('ADMIN_PASSWORD is required');
    const colon = runScript({ ADMIN_USER: 'ad:min', ADMIN_PASSWORD: 'x', ADMIN_HTPASSWD_FILE: file });
    expect(colon.status).not.toBe(0);
    expect(colon.stderr).toContain("must not contain ':'");
  });
});
