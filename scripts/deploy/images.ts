/**
 * Builds every LogoVote image docker-compose.yml builds, with podman, from the one Dockerfile: each service's
 * build section (target, build arguments) and image name as Docker's compose CLI reads docker-compose.yml with
 * deploy/compose.standins.yml (the stand-in bases as NODE_IMAGE and RUNTIME_IMAGE). The images share their
 * layers (the workspace's dependencies are installed once). Versions are compose's variables (.env.example's,
 * unless given).
 *
 *   npx tsx --conditions=source scripts/deploy/images.ts [VOTE_REMOTE_VERSION=0.2.0 ...]
 */
import { join } from 'node:path';
import { repoRoot } from '@logovote/devstack';
import { changeImages, ensureEngineInstalled, readComposeConfig } from './engine';

export interface BuildImagesOptions {
  /** Compose's version variables to set (e.g. { VOTE_REMOTE_VERSION: '0.2.0' }); the rest from .env.example. */
  versions?: Record<string, string>;
  log: (line: string) => void;
}

/** Builds every image compose builds; resolves with their references (logovote/<name>:<version>). */
export async function buildImages({ versions = {}, log }: BuildImagesOptions): Promise<string[]> {
  ensureEngineInstalled();
  const config = readComposeConfig(join(repoRoot, '.env.example'), { standIns: true, variables: versions });
  const refs: string[] = [];
  for (const [service, { image, build }] of Object.entries(config.services)) {
    if (!build) continue;
    if (!image) throw new Error(`docker-compose.yml: ${service} is built but names no image`);
    const args = build.args ?? {};
    log(`building ${image} (${service})`);
    await changeImages(
      [
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
