/**
 * Each Dockerfile's build reproduced outside Docker (scripts/ci/image-steps.ts): its COPY and RUN steps in a
 * directory per stage, then its CMD started with the image's ENV plus what docker-compose.yml gives that
 * container (the stores pointed at the test stack's FerretDB, MinIO and MailDev), until its HEALTHCHECK passes.
 * A service must then also be ready (/readyz: its MongoDB and object store answer); a front end must serve its
 * files with the production cache headers. Proves the commands build and the result starts, in CI, with no
 * Docker engine.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from '@logovote/devstack';
import { interpolateCompose, parseEnvFile, readComposeRaw, serviceEnvironment } from '../../scripts/ci/compose';
import { contextFiles } from '../../scripts/ci/dockerignore';
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
const dockerfiles = contextFiles(repoRoot).filter((file) => file.endsWith('/Dockerfile'));

/** The compose service a Dockerfile builds. */
function composeServiceOf(dockerfile: string): string {
  const entry = Object.entries(compose.services).find(([, service]) => service.build?.dockerfile === dockerfile);
  if (!entry) throw new Error(`no compose service builds ${dockerfile}`);
  return entry[0];
}

/** What compose gives the container, with the stores it names replaced by the test stack's (as an operator would with external ones). */
function containerEnv(dockerfile: string): Record<string, string> {
  const env = serviceEnvironment(compose.services[composeServiceOf(dockerfile)]!);
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

describe.each(dockerfiles)('%s, built and started without Docker', (dockerfile) => {
  it('builds, starts, passes its HEALTHCHECK and stops cleanly', async () => {
    const image = buildImage(session, dockerfile);
    const port = await findFreePort();
    // The host is no private network namespace: listen on loopback, on a free port.
    const env = { ...containerEnv(dockerfile), HOST: '127.0.0.1', PORT: String(port) };
    const container = startContainer(image, env, join(session.workDir, 'logs', `${dockerfile.replace(/\W+/g, '-')}.log`));
    try {
      await waitHealthy(image, env, container);
      const base = `http://127.0.0.1:${port}`;
      if (dockerfile.startsWith('services/')) {
        const ready = await fetch(`${base}/readyz`);
        expect({ status: ready.status, body: (await ready.json()) as unknown }).toEqual({
          status: 200,
          body: expect.objectContaining({ status: 'ready' }),
        });
      } else {
        const entry = dockerfile.startsWith('shells/') ? '/' : '/mf-manifest.json';
        const index = await fetch(`${base}${entry}`);
        expect(index.status).toBe(200);
        expect(index.headers.get('cache-control')).toBe('no-cache');
        const html = dockerfile.startsWith('shells/') ? await index.text() : JSON.stringify(await index.json());
        const hashed = /[\w.-]+\.[0-9a-f]{10}\.js/.exec(html)?.[0];
        expect(hashed).toBeDefined();
        const asset = await fetch(`${base}/${hashed!}`);
        expect(asset.status).toBe(200);
        expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        if (dockerfile.startsWith('shells/')) {
          // Single-page-app fallback for routes, not for files.
          expect((await fetch(`${base}/vote/AAAAAAAAAAAAAAAA`)).status).toBe(200);
          expect((await fetch(`${base}/missing.js`)).status).toBe(404);
        }
      }
    } finally {
      const exitCode = await container.stop();
      expect(exitCode).toBe(0);
      forgetDerivedStages(session);
    }
  }, 600_000);
});
