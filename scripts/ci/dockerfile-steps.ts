/**
 * Builds images the way CI checks them without a Docker engine (scripts/ci/image-steps.ts), then starts each one
 * with its CMD and waits for its HEALTHCHECK:
 *   tsx scripts/ci/dockerfile-steps.ts [--env NAME=value ...] [<compose service>...]
 *     the images docker-compose.yml builds (all of them without a name), with its dockerfile, target and args
 *     (variables from .env, or .env.example when there is none);
 *   tsx scripts/ci/dockerfile-steps.ts [--env NAME=value ...] --file Dockerfile [--target <stage>] [--build-arg NAME=value ...]
 *     one image, as `docker build` is told.
 * The container gets the image's ENV, then the --env values, with HOST=127.0.0.1 and a free PORT (the host is
 * no private network namespace). tests/deploy/dockerfile-steps.test.ts does the same for every image compose builds.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findFreePort } from '@logovote/devstack';
import { composeBuilds, interpolateCompose, parseEnvFile, readComposeRaw } from './compose';
import { buildImage, forgetDerivedStages, startContainer, waitHealthy, type BuildSession, type ImageSpec } from './image-steps';

const repoRoot = resolve(__dirname, '..', '..');
const USAGE =
  'usage: dockerfile-steps.ts [--env NAME=value ...] [<compose service>...]\n' +
  '       dockerfile-steps.ts [--env NAME=value ...] --file Dockerfile [--target <stage>] [--build-arg NAME=value ...]\n';

const pairs = (list: string[]): Record<string, string> =>
  Object.fromEntries(list.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));

/** The images to build: the one of the command line, or those of docker-compose.yml. */
function imageSpecs(options: { file?: string; target?: string; 'build-arg': string[] }, services: string[]): ImageSpec[] {
  if (options.file) {
    if (services.length > 0) throw new Error(`--file builds one image; no compose services with it (${services.join(' ')})`);
    return [{ dockerfile: options.file, target: options.target, buildArgs: pairs(options['build-arg']) }];
  }
  if (options.target || options['build-arg'].length > 0) throw new Error('--target and --build-arg go with --file');
  const envFile = join(repoRoot, existsSync(join(repoRoot, '.env')) ? '.env' : '.env.example');
  const compose = interpolateCompose(readComposeRaw(join(repoRoot, 'docker-compose.yml')), parseEnvFile(readFileSync(envFile, 'utf8')));
  const builds = composeBuilds(compose);
  const unknown = services.filter((service) => !builds.some((build) => build.service === service));
  if (unknown.length > 0) throw new Error(`docker-compose.yml builds no image for ${unknown.join(', ')}`);
  return builds
    .filter((build) => services.length === 0 || services.includes(build.service))
    .map((build) => {
      if (posix.normalize(build.context) !== '.') throw new Error(`${build.service}: only the repository root is reproduced as a context`);
      return { dockerfile: build.dockerfile, target: build.target, buildArgs: build.args };
    });
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      env: { type: 'string', multiple: true, default: [] },
      file: { type: 'string' },
      target: { type: 'string' },
      'build-arg': { type: 'string', multiple: true, default: [] },
    },
  });
  let specs: ImageSpec[];
  try {
    specs = imageSpecs(values, positionals);
  } catch (error: unknown) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
  const extraEnv = pairs(values.env);
  const workDir = mkdtempSync(join(tmpdir(), 'logovote-image-steps-'));
  const session: BuildSession = {
    contextDir: repoRoot,
    workDir,
    cache: new Map(),
    log: (line) => process.stdout.write(`${line}\n`),
  };
  try {
    for (const spec of specs) {
      const image = buildImage(session, spec);
      const env = { ...extraEnv, HOST: '127.0.0.1', PORT: String(await findFreePort()) };
      const container = startContainer(image, env, join(workDir, 'logs', `${image.name.replace(/\W+/g, '-')}.log`));
      try {
        await waitHealthy(image, env, container);
        process.stdout.write(`${image.name}: healthy on port ${env.PORT} (user ${image.config.user})\n`);
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
