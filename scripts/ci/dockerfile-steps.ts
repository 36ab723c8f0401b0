/**
 * Builds Dockerfiles the way CI checks them without a Docker engine (scripts/ci/image-steps.ts), then starts
 * each image with its CMD and waits for its HEALTHCHECK:
 *   tsx scripts/ci/dockerfile-steps.ts [--env NAME=value ...] <Dockerfile>...
 * The container gets the image's ENV, then the --env values, with HOST=127.0.0.1 and a free PORT (the host is
 * no private network namespace). tests/deploy/dockerfile-steps.test.ts runs it for every Dockerfile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findFreePort } from '@logovote/devstack';
import { buildImage, forgetDerivedStages, startContainer, waitHealthy, type BuildSession } from './image-steps';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { env: { type: 'string', multiple: true, default: [] } } });
  if (positionals.length === 0) {
    process.stderr.write('usage: dockerfile-steps.ts [--env NAME=value ...] <Dockerfile>...\n');
    process.exit(2);
  }
  const extraEnv = Object.fromEntries(values.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  const workDir = mkdtempSync(join(tmpdir(), 'logovote-image-steps-'));
  const session: BuildSession = {
    contextDir: resolve(__dirname, '..', '..'),
    workDir,
    cache: new Map(),
    log: (line) => process.stdout.write(`${line}\n`),
  };
  try {
    for (const dockerfile of positionals) {
      const image = buildImage(session, dockerfile);
      const env = { ...extraEnv, HOST: '127.0.0.1', PORT: String(await findFreePort()) };
      const container = startContainer(image, env, join(workDir, 'logs', `${dockerfile.replace(/\W+/g, '-')}.log`));
      try {
        await waitHealthy(image, env, container);
        process.stdout.write(`${dockerfile}: healthy on port ${env.PORT} (user ${image.config.user})\n`);
      } finally {
        await container.stop();
      }
      forgetDerivedStages(session);
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
