/**
 * docker-compose.yml run for real: the images built with podman from the Dockerfile (scripts/deploy/images.ts)
 * and read back from the engine, then the stack (with the stand-ins of deploy/compose.standins.yml) brought up by
 * Docker's compose CLI against podman's API with its health-gated dependencies, and used through the published
 * gateway port as a visitor and the admin would.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestStackEnv } from '../support/stack-env';
import { STACK_ENV_VAR } from '../support/stack-env';
import { adminAuthorization } from '../support/admin';
import { expectSmokeFlowPasses } from '../support/deployed-app';
import { SERVICES, inspectServices, loopbackDefaults, packageVersion, type ServiceName } from '../deploy/support';
import { repoRoot } from '@logovote/devstack';
import { changeImages, nodeBaseImage, podmanPath, readComposeConfig, run } from '../../scripts/deploy/engine';
import { buildImages } from '../../scripts/deploy/images';
import { buildStandInImages } from '../../scripts/deploy/standins';
import { type ComposeStack, prepareComposeStack } from './compose-stack';

const log = (line: string) => process.stdout.write(`[compose] ${line}\n`);
// Every hook and test here calls the container engine (a build, a run, an inspect): seconds each on a busy host.
jest.setTimeout(5 * 60_000);

const compose = readComposeConfig(join(repoRoot, '.env.example'), { standIns: true });
const builtServices = Object.entries(compose.services).filter(([, service]) => service.build);

interface ImageConfig {
  User?: string;
  Env?: string[];
  Cmd?: string[];
  Healthcheck?: { Test?: string[] };
  Labels?: Record<string, string>;
  ExposedPorts?: Record<string, unknown>;
}

async function imageConfig(ref: string): Promise<ImageConfig> {
  // podman lists a Docker-format image's HEALTHCHECK beside its OCI configuration.
  const [image] = JSON.parse(await run(podmanPath(), ['image', 'inspect', ref])) as {
    Config: ImageConfig;
    Healthcheck?: ImageConfig['Healthcheck'];
  }[];
  return { ...image!.Config, Healthcheck: image!.Healthcheck };
}

const envOf = (config: ImageConfig): Record<string, string> =>
  Object.fromEntries((config.Env ?? []).map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));

/** The files a build sees of the repository: the context after .dockerignore, listed by a build of the real engine. */
async function buildContextFiles(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'logovote-context-'));
  const probe = `localhost/logovote-context-probe:${process.pid}`;
  try {
    writeFileSync(
      join(dir, 'Containerfile'),
      `FROM ${nodeBaseImage()}\nCOPY . /context\nRUN cd /context && find . -maxdepth 4 > /files.txt\n`,
    );
    await changeImages(['build', '--network', 'none', '--file', join(dir, 'Containerfile'), '--tag', probe, repoRoot]);
    const listing = await run(podmanPath(), ['run', '--rm', '--network', 'none', probe, 'cat', '/files.txt']);
    return listing
      .split('\n')
      .filter(Boolean)
      .map((path) => path.replace(/^\.\//, ''));
  } finally {
    await changeImages(['rmi', '--force', probe]).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('docker-compose.yml on podman', () => {
  let stack: ComposeStack | undefined;
  const stackEnvBefore = process.env[STACK_ENV_VAR];

  beforeAll(async () => {
    await buildStandInImages(log);
    await buildImages({ log });
    stack = await prepareComposeStack(log);
    await stack.up();
    // The polls and admin helpers of tests/support talk to the stack this names: the compose stack's gateway.
    const env: Pick<TestStackEnv, 'gatewayUrl' | 'admin'> = { gatewayUrl: stack.gatewayUrl, admin: stack.admin };
    process.env[STACK_ENV_VAR] = JSON.stringify(env);
  }, 40 * 60_000);

  afterAll(async () => {
    if (stackEnvBefore === undefined) delete process.env[STACK_ENV_VAR];
    else process.env[STACK_ENV_VAR] = stackEnvBefore;
    if (!stack) return;
    await stack.down();
    expect(await stack.leftovers()).toEqual([]);
  }, 5 * 60_000);

  describe.each(builtServices)('the image of %s', (name, service) => {
    let config: ImageConfig;
    const workspace = service.build!.args!.WORKSPACE!;
    beforeAll(async () => {
      config = await imageConfig(service.image!);
    });

    it('runs as an unprivileged user, with a HEALTHCHECK and a CMD', () => {
      expect(['', 'root', '0', '0:0']).not.toContain(config.User ?? '');
      expect(config.Healthcheck?.Test?.length).toBeGreaterThan(0);
      expect(config.Cmd?.length).toBeGreaterThan(0);
    });

    it('is labelled with its title, description and version, and listens on its port on every interface', () => {
      expect(config.Labels).toMatchObject({
        'org.opencontainers.image.title': `LogoVote ${workspace}`,
        'org.opencontainers.image.description': expect.stringContaining(workspace) as string,
        'org.opencontainers.image.version': packageVersion(workspace),
      });
      const port = service.build!.args!.PORT!;
      expect(Object.keys(config.ExposedPorts ?? {})).toEqual([`${port}/tcp`]);
      expect(envOf(config)).toMatchObject({ PORT: port, HOST: '0.0.0.0', NODE_ENV: 'production' });
    });
  });

  describe('each service environment, as the service reads it (the image ENV with what compose gives)', () => {
    const given = (name: ServiceName) =>
      Object.fromEntries(Object.entries(compose.services[name]!.environment ?? {}).map(([key, value]) => [key, value ?? '']));
    const environments = {} as Record<ServiceName, Record<string, string>>;
    let reports: ReturnType<typeof inspectServices>;
    beforeAll(async () => {
      for (const name of SERVICES) environments[name] = { ...envOf(await imageConfig(compose.services[name]!.image!)), ...given(name) };
      reports = inspectServices(environments);
    });

    it.each(SERVICES)('gives %s what its configuration requires, nothing it does not read, and no loopback default', (name) => {
      const report = reports[name];
      expect({ service: name, error: report.error }).toEqual({ service: name, error: null });
      const unread = Object.keys(given(name)).filter((key) => !report.read.includes(key));
      expect({ service: name, unread }).toEqual({ service: name, unread: [] });
      expect({ service: name, loopbackDefaults: loopbackDefaults(report.config!, environments[name]) }).toEqual({
        service: name,
        loopbackDefaults: [],
      });
    });
  });

  it('builds from a context without dependencies, builds, secrets, tooling or local data (.dockerignore)', async () => {
    // A secret as an operator keeps one beside the compose file; .env.* must keep it out of every image.
    const secretFile = join(repoRoot, `.env.context-probe-${process.pid}`);
    writeFileSync(secretFile, 'SECRET=never-in-an-image\n');
    let files: string[];
    try {
      files = await buildContextFiles();
    } finally {
      rmSync(secretFile, { force: true });
    }
    const leaked = files.filter((path) => /(^|\/)(node_modules|dist|\.git|\.tools|\.run)(\/|$)|^\.env/.test(path));
    expect(leaked).toEqual([]);
    for (const path of [
      'package-lock.json',
      '.npmrc',
      'tsconfig.base.json',
      'services/votes/src/server.ts',
      'packages/static-server/src/cli.ts',
    ])
      expect({ path, inContext: files.includes(path) }).toEqual({ path, inContext: true });
  });

  // Its own time limit: the first upload can wait for the services' moderation models, loaded in the background.
  it('creates a poll, takes a vote and counts it, serves its logos, and keeps /api/admin behind the credentials', async () => {
    const result = await expectSmokeFlowPasses({ gatewayUrl: stack!.gatewayUrl, admin: stack!.admin }, log);
    const logo = await fetch(`${stack!.gatewayUrl}/api/logos/${result.poll.logos[0]!.filename}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toMatch(/^image\//);
  }, 120_000);

  it('serves the shell and every remote through the gateway', async () => {
    const page = await fetch(`${stack!.gatewayUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    for (const remote of ['create', 'vote', 'results', 'admin']) {
      const headers = remote === 'admin' ? adminAuthorization() : {};
      const manifest = await fetch(`${stack!.gatewayUrl}/remotes/${remote}/mf-manifest.json`, { headers });
      expect({ remote, status: manifest.status }).toEqual({ remote, status: 200 });
    }
  });
});
