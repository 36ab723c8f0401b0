/**
 * Builds every LogoVote image docker-compose.yml builds, with podman, from the one Dockerfile: each service's
 * build section (target, build arguments) and image name as Docker's compose CLI reads docker-compose.yml with
 * deploy/compose.standins.yml (the stand-in bases as NODE_IMAGE and RUNTIME_IMAGE). The images share their
 * layers (the workspace's dependencies are installed once). Versions are compose's variables (.env.example's,
 * unless given).
 *
 *   npx tsx --conditions=source scripts/deploy/images.ts [VOTE_REMOTE_VERSION=0.2.0 ...]
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '@logovote/devstack';
import { ensureEngineInstalled, podmanPath, readComposeConfig, run } from './engine';

export interface BuildImagesOptions {
  /** Compose's version variables to set (e.g. { VOTE_REMOTE_VERSION: '0.2.0' }); the rest from .env.example. */
  versions?: Record<string, string>;
  log: (line: string) => void;
}

/** Builds every image compose builds; resolves with their references (logovote/<name>:<version>). */
export async function buildImages({ versions = {}, log }: BuildImagesOptions): Promise<string[]> {
  ensureEngineInstalled();
  const config = readComposeConfig(join(repoRoot, '.env.example'), { standIns: true, variables: versions });
  // One build at a time in podman's storage (flock, beside the storage's configuration): the compose and kubernetes
  // projects build the same images, and the build that waits then finds every layer of its image built.
  const buildLock = join(dirname(realpathSync(podmanPath())), '..', 'image-build.lock');
  const refs: string[] = [];
  for (const [service, { image, build }] of Object.entries(config.services)) {
    if (!build) continue;
    if (!image) throw new Error(`docker-compose.yml: ${service} is built but names no image`);
    const args = build.args ?? {};
    log(`building ${image} (${service})`);
    await run(
      'flock',
      [
        buildLock,
        podmanPath(),
        'build',
        // Docker's image format: OCI's has no HEALTHCHECK, and podman drops it there.
        '--format',
        'docker',
        // npm ci reaches the npm registry from the build host's network.
        '--network',
        'host',
        '--file',
        join(build.context, build.dockerfile),
        ...(build.target ? ['--target', build.target] : []),
        ...Object.entries(args).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]),
        '--tag',
        image,
        build.context,
      ],
      { onLine: (line) => /^(\[\d+\/\d+\] )?STEP /.test(line) && log(`  ${line.slice(0, 160)}`) },
    );
    refs.push(image);
  }
  return refs;
}

if (require.main === module) {
  const versions = Object.fromEntries(
    process.argv.slice(2).map((arg) => [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]),
  );
  const log = (line: string) => process.stdout.write(`[images] ${line}\n`);
  buildImages({ versions, log }).then(
    (refs) => log(`built ${refs.join(' ')}`),
    (error: unknown) => {
      process.stderr.write(`[images] ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
