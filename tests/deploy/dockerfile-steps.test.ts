/**
 * Each image docker-compose.yml builds, its build reproduced outside Docker (scripts/ci/image-steps.ts) from the
 * one Dockerfile with compose's target and build arguments: the stages that target needs, their COPY and RUN
 * steps in a directory per stage, then its CMD started with the image's ENV plus what docker-compose.yml gives
 * that container (the stores pointed at the test stack's FerretDB, MinIO and MailDev), until its HEALTHCHECK
 * passes. A service must then also be ready (/readyz: its MongoDB and object store answer); a front end must
 * serve its files with the production cache headers. Proves the commands build and the result starts, in CI,
 * with no Docker engine.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '@logovote/devstack';
import { composeBuilds, interpolateCompose, parseEnvFile, readComposeRaw, serviceEnvironment } from '../../scripts/ci/compose';
import { buildImage, forgetDerivedStages, startContainer, waitHealthy, type BuildSession } from '../../scripts/ci/image-steps';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../support/integration';
import { testStack } from '../support/stack-env';
import { repoRoot } from './support';

const stack = testStack();
const databaseUri = testDatabaseUri('dockerfile_steps');
const bucket = `dockerfile-steps-${Math.random().toString(36).slice(2, 8)}`;

const compose = interpolateCompose(
  readComposeRaw(join(repoRoot, 'docker-compose.yml')),
  parseEnvFile(readFileSync(join(repoRoot, '.env.example'), 'utf8')),
);
const builds = composeBuilds(compose);

/** What compose gives the container, with the stores it names replaced by the test stack's (as an operator would with external ones). */
function containerEnv(service: string): Record<string, string> {
  const env = serviceEnvironment(compose.services[service]!);
  const stores: Record<string, string> = {
    MONGODB_URI: databaseUri,
    S3_ENDPOINT: stack.s3.endpoint,
    S3_ACCESS_KEY: stack.s3.accessKey,
    S3_SECRET_KEY: stack.s3.secretKey,
    S3_BUCKET: bucket,
    S3_REGION: stack.s3.region,
    SMTP_URL: stack.smtpUrl,
  };
  for (const [key, value] of Object.entries(stores)) if (key in env) env[key] = value;
  return env;
}

let session: BuildSession;

beforeAll(() => {
  session = {
    contextDir: repoRoot,
    workDir: mkdtempSync(join(tmpdir(), 'logovote-image-steps-')),
    cache: new Map(),
    log: (line) => process.stdout.write(`[image-steps] ${line}\n`),
  };
});

afterAll(async () => {
  rmSync(session.workDir, { recursive: true, force: true });
  await connectTestDatabase(databaseUri);
  await dropTestDatabase();
}, 60_000);

describe.each(builds)('$service (--target $target), built and started without Docker', (build) => {
  const workspace = build.args.WORKSPACE!;
  const shell = workspace.startsWith('shells/');

  it('builds, starts as an unprivileged user with its labels, passes its HEALTHCHECK and stops cleanly', async () => {
    expect(build.context).toBe('.');
    const image = buildImage(session, { dockerfile: build.dockerfile, target: build.target, buildArgs: build.args });
    expect(['root', '0', '0:0']).not.toContain(image.config.user);
    expect(image.config.labels).toEqual({
      'org.opencontainers.image.title': `LogoVote ${workspace}`,
      'org.opencontainers.image.description': expect.stringContaining(workspace),
      'org.opencontainers.image.version': build.args.VERSION,
    });
    const port = await findFreePort();
    // The host is no private network namespace: listen on loopback, on a free port.
    const env = { ...containerEnv(build.service), HOST: '127.0.0.1', PORT: String(port) };
    const container = startContainer(image, env, join(session.workDir, 'logs', `${build.service}.log`));
    try {
      await waitHealthy(image, env, container);
      const base = `http://127.0.0.1:${port}`;
      if (build.target === 'service') {
        const ready = await fetch(`${base}/readyz`);
        expect({ status: ready.status, body: (await ready.json()) as unknown }).toEqual({
          status: 200,
          body: expect.objectContaining({ status: 'ready' }),
        });
      } else {
        const entry = shell ? '/' : '/mf-manifest.json';
        const index = await fetch(`${base}${entry}`);
        expect(index.status).toBe(200);
        expect(index.headers.get('cache-control')).toBe('no-cache');
        const html = shell ? await index.text() : JSON.stringify(await index.json());
        const hashed = /[\w.-]+\.[0-9a-f]{10}\.js/.exec(html)?.[0];
        expect(hashed).toBeDefined();
        const asset = await fetch(`${base}/${hashed!}`);
        expect(asset.status).toBe(200);
        expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        // Single-page-app fallback for the shell's routes (not for files), and for no remote.
        expect((await fetch(`${base}/vote/AAAAAAAAAAAAAAAA`)).status).toBe(shell ? 200 : 404);
        if (shell) expect((await fetch(`${base}/missing.js`)).status).toBe(404);
      }
    } finally {
      const exitCode = await container.stop();
      expect(exitCode).toBe(0);
      forgetDerivedStages(session);
    }
  }, 600_000);
});
