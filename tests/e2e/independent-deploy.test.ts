/**
 * Independent deploys: a new version of the vote remote, rebuilt and restarted alone, reaches an already-open
 * shell page on its next load, without the shell being rebuilt or restarted.
 *
 * It runs on a deployment of its own, wired as production is (the real gateway template, each front end's
 * build served by packages/static-server), so stopping its vote remote never disturbs the other tests: the
 * shell, the four remotes (from their builds in the repository) and an nginx gateway from
 * gateway/templates/default.conf.template, whose API upstreams are the test stack's gateway. The new vote
 * remote is built from a copy of mfes/vote (sources in the repository stay untouched) with a visible banner
 * and a higher version.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFreePort, renderNginxConf, repoRoot, spawnManaged, startNginx, waitForHttp, type ManagedProcess } from '@logovote/devstack';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { copyGatewaySnippets, renderGatewayServerConfig } from '../../scripts/lib/gateway-config';
import { htpasswdLine } from '../../scripts/lib/secrets';
import { launchBrowser, screenshotPath } from '../support/browser';
import { testStack } from '../support/stack-env';

const { gatewayUrl: stackGatewayUrl } = testStack();
const runDir = join(repoRoot, '.run', 'independent-deploy', String(process.pid));
const logDir = join(runDir, 'logs');
const FRONTENDS = { shell: 'shells/web', create: 'mfes/create', vote: 'mfes/vote', results: 'mfes/results', admin: 'mfes/admin' } as const;
type Frontend = keyof typeof FRONTENDS;
const VOTE_PAGE = '/vote/AAAAAAAAAAAAAAAA';
const BANNER = '[data-testid="redeployed-vote-remote"]';

const currentVersion = (JSON.parse(readFileSync(join(repoRoot, 'mfes', 'vote', 'package.json'), 'utf8')) as { version: string }).version;
const [major, minor, patch] = currentVersion.split('.').map(Number) as [number, number, number];
const newVersion = `${major}.${minor}.${patch + 1}`;

const ports = {} as Record<Frontend | 'gateway', number>;
const servers = new Map<Frontend, ManagedProcess>();
let gateway: ManagedProcess;
let gatewayUrl: string;
let newVoteDist: string;
let browser: Browser;
let context: BrowserContext;

/** Starts one front end's static server, as the stack does: the shell with its single-page-app fallback. */
async function serve(frontend: Frontend, dir: string): Promise<ManagedProcess> {
  const args = [join(repoRoot, 'packages', 'static-server', 'dist', 'cli.js'), '--dir', dir, '--port', String(ports[frontend])];
  if (frontend === 'shell') args.push('--spa');
  const proc = spawnManaged(`deploy-${frontend}`, process.execPath, args, { logDir });
  await waitForHttp(`http://127.0.0.1:${ports[frontend]}${frontend === 'shell' ? '/' : '/mf-manifest.json'}`, { proc, timeoutMs: 30_000 });
  servers.set(frontend, proc);
  return proc;
}

/**
 * Version N+1 of the vote remote: a copy of mfes/vote (and the shared remote config it imports) under .run/,
 * so its packages resolve from the repository's node_modules, exposing the same page wrapped in a banner.
 */
function buildNewVoteRemote(): string {
  const copyRoot = join(runDir, 'src');
  const remoteDir = join(copyRoot, 'mfes', 'vote');
  cpSync(join(repoRoot, 'mfes', 'vote'), remoteDir, { recursive: true, filter: (source) => !/[\\/](dist|node_modules)$/.test(source) });
  cpSync(join(repoRoot, 'mfes', 'rspack.remote.ts'), join(copyRoot, 'mfes', 'rspack.remote.ts'));
  const pkgPath = join(remoteDir, 'package.json');
  writeFileSync(pkgPath, JSON.stringify({ ...(JSON.parse(readFileSync(pkgPath, 'utf8')) as object), version: newVersion }, null, 2));
  writeFileSync(
    join(remoteDir, 'src', 'RedeployedVotePage.tsx'),
    [
      "import VotePage from './VotePage';",
      '',
      'export default function RedeployedVotePage(props: Parameters<typeof VotePage>[0]) {',
      '  return (',
      '    <>',
      `      <p data-testid="redeployed-vote-remote" data-version="${newVersion}" className="mx-auto mb-4 w-full max-w-3xl rounded-md bg-primary p-3 text-primary-foreground">`,
      `        Vote remote ${newVersion}, deployed on its own`,
      '      </p>',
      '      <VotePage {...props} />',
      '    </>',
      '  );',
      '}',
      '',
    ].join('\n'),
  );
  const configPath = join(remoteDir, 'rspack.config.ts');
  const config = readFileSync(configPath, 'utf8');
  if (!config.includes("'./src/VotePage.tsx'"))
    throw new Error('mfes/vote/rspack.config.ts no longer exposes ./src/VotePage.tsx: update this test');
  writeFileSync(configPath, config.replace("'./src/VotePage.tsx'", "'./src/RedeployedVotePage.tsx'"));
  const rspack = join(repoRoot, 'node_modules', '@rspack', 'cli', 'bin', 'rspack.js');
  const build = spawnSync(process.execPath, [rspack, 'build'], {
    cwd: remoteDir,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error(`building the new vote remote failed:\n${build.stdout}\n${build.stderr}`);
  return join(remoteDir, 'dist');
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const shellFiles = () => sha256(readFileSync(join(repoRoot, FRONTENDS.shell, 'dist', 'index.html')));

beforeAll(async () => {
  mkdirSync(logDir, { recursive: true });
  newVoteDist = buildNewVoteRemote();
  for (const name of [...Object.keys(FRONTENDS), 'gateway'] as (Frontend | 'gateway')[]) ports[name] = await findFreePort();
  await Promise.all((Object.keys(FRONTENDS) as Frontend[]).map((frontend) => serve(frontend, join(repoRoot, FRONTENDS[frontend], 'dist'))));

  const gatewayDir = join(runDir, 'gateway');
  mkdirSync(gatewayDir, { recursive: true });
  const htpasswd = join(gatewayDir, 'admin.htpasswd');
  writeFileSync(htpasswd, htpasswdLine('admin', Math.random().toString(36)), { mode: 0o600 });
  const stackApi = new URL(stackGatewayUrl).host.replace(/^localhost:/, '127.0.0.1:');
  const local = (frontend: Frontend) => `127.0.0.1:${ports[frontend]}`;
  const confPath = join(gatewayDir, 'nginx.conf');
  writeFileSync(
    confPath,
    renderNginxConf(
      gatewayDir,
      renderGatewayServerConfig({
        GATEWAY_LISTEN: `127.0.0.1:${ports.gateway}`,
        SESSIONS_UPSTREAM: stackApi,
        VOTES_UPSTREAM: stackApi,
        MEDIA_UPSTREAM: stackApi,
        NOTIFY_UPSTREAM: stackApi,
        SHELL_UPSTREAM: local('shell'),
        CREATE_REMOTE_UPSTREAM: local('create'),
        VOTE_REMOTE_UPSTREAM: local('vote'),
        RESULTS_REMOTE_UPSTREAM: local('results'),
        ADMIN_REMOTE_UPSTREAM: local('admin'),
        CREATE_MANIFEST_URL: '/remotes/create/mf-manifest.json',
        VOTE_MANIFEST_URL: '/remotes/vote/mf-manifest.json',
        RESULTS_MANIFEST_URL: '/remotes/results/mf-manifest.json',
        ADMIN_MANIFEST_URL: '/remotes/admin/mf-manifest.json',
        ADMIN_HTPASSWD_FILE: htpasswd,
        API_RATE_LIMIT: '50r/s',
        API_RATE_BURST: '200',
      }),
    ),
  );
  copyGatewaySnippets(gatewayDir);
  gatewayUrl = `http://localhost:${ports.gateway}`;
  ({ proc: gateway } = await startNginx({
    prefixDir: gatewayDir,
    confPath,
    logDir,
    readyUrl: `http://127.0.0.1:${ports.gateway}/runtime-config.json`,
  }));

  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await gateway?.stop();
  await Promise.all([...servers.values()].map((proc) => proc.stop()));
  rmSync(runDir, { recursive: true, force: true });
});

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${gatewayUrl}${path}`);
  await page.waitForSelector('[data-testid="shell"]');
  return page;
}

async function manifestVersion(): Promise<string> {
  const res = await fetch(`${gatewayUrl}/remotes/vote/mf-manifest.json`);
  return ((await res.json()) as { metaData: { buildInfo: { buildVersion: string } } }).metaData.buildInfo.buildVersion;
}

/** The shell's own script and style URLs on a page: content-hashed, so a rebuilt shell would change them. */
const shellAssets = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>('script[src], link[rel="stylesheet"]')]
      .map((element) => ('src' in element ? element.src : element.href))
      .filter((url) => !url.includes('/remotes/'))
      .sort(),
  );

describe('redeploying the vote remote alone', () => {
  it('reaches the already-open shell page on its next load, with the shell neither rebuilt nor restarted', async () => {
    // Version N everywhere.
    expect(await manifestVersion()).toBe(currentVersion);
    const voting = await open(VOTE_PAGE);
    await voting.waitForSelector('[data-remote="vote"]', { timeout: 15_000 });
    expect(await voting.locator(BANNER).count()).toBe(0);
    const landing = await open('/');
    await landing.waitForSelector('[data-remote="create"]', { timeout: 15_000 });
    // Marks this document: it survives client-side navigation, not a reload.
    await landing.evaluate(() => Object.assign(window, { __sameDocument: true }));

    const shellServer = servers.get('shell')!;
    const shellBefore = {
      pid: shellServer.pid,
      files: shellFiles(),
      assets: await shellAssets(voting),
      index: await (await fetch(`${gatewayUrl}/`)).text(),
    };

    // The redeploy: stop the vote remote's server, start version N+1 in its place. Nothing else is touched.
    await servers.get('vote')!.stop();
    await serve('vote', newVoteDist);
    expect(await manifestVersion()).toBe(newVersion);

    // A reload of the open page loads the new remote: the shell reads /runtime-config.json and the manifest anew.
    await voting.reload();
    await voting.waitForSelector(BANNER, { timeout: 15_000 });
    expect(await voting.locator(BANNER).getAttribute('data-version')).toBe(newVersion);
    await voting.waitForSelector('[data-remote="vote"]');
    await voting.screenshot({ path: screenshotPath('independent-deploy-vote-remote'), fullPage: true });

    // A page that had not loaded the vote remote yet gets the new one on navigation, without a reload.
    await landing.evaluate((path) => {
      window.history.pushState(null, '', path);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, VOTE_PAGE);
    await landing.waitForSelector(BANNER, { timeout: 15_000 });
    expect(await landing.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);

    // The shell: the same process, the same build, the same files served.
    expect(() => process.kill(shellServer.pid, 0)).not.toThrow();
    expect({
      pid: shellServer.pid,
      files: shellFiles(),
      assets: await shellAssets(voting),
      index: await (await fetch(`${gatewayUrl}/`)).text(),
    }).toEqual(shellBefore);
    await Promise.all([voting.close(), landing.close()]);
  }, 120_000);
});
