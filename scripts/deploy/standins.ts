/**
 * Builds the stand-ins deploy/compose.standins.yml runs in place of the official images that cannot be pulled
 * here (mongo, minio/minio, minio/mc, maildev/maildev): deploy/standins/Dockerfile's targets, on the stand-in
 * Node base, with the servers scripts/install-infra.sh built as build contexts.
 *
 *   npx tsx --conditions=source scripts/deploy/standins.ts
 */
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { toolPath, repoRoot } from '@logovote/devstack';
import { changeImages, ensureEngineInstalled, nodeBaseImage } from './engine';

/** Each stand-in: its Dockerfile target, tagged localhost/logovote-standin/<target>:local. */
export const STANDIN_TARGETS = ['mongodb', 'minio', 'mc', 'maildev'] as const;

/** The folder holding a tool's binary in the tools cache (the link in .tools/bin resolved). */
function toolDir(name: 'ferretdb' | 'minio' | 'mc'): string {
  return dirname(realpathSync(toolPath(name)));
}

export async function buildStandInImages(log: (line: string) => void): Promise<string[]> {
  ensureEngineInstalled();
  // MailDev's installed tree: the folder whose node_modules holds it (.tools/bin/maildev points into it).
  const maildevDir = realpathSync(toolPath('maildev')).split('/node_modules/')[0]!;
  const contexts = { ferretdb: toolDir('ferretdb'), minio: toolDir('minio'), mc: toolDir('mc'), maildev: maildevDir };
  const refs: string[] = [];
  for (const target of STANDIN_TARGETS) {
    const ref = `localhost/logovote-standin/${target}:local`;
    log(`building ${ref}`);
    await changeImages([
      'build',
      // The mongodb stand-in installs Debian's PostgreSQL from deb.debian.org.
      '--network',
      'host',
      '--target',
      target,
      '--build-arg',
      `BASE_IMAGE=${nodeBaseImage()}`,
      ...Object.entries(contexts).flatMap(([name, dir]) => ['--build-context', `${name}=${dir}`]),
      '--tag',
      ref,
      join(repoRoot, 'deploy', 'standins'),
    ]);
    refs.push(ref);
  }
  return refs;
}

if (require.main === module) {
  const log = (line: string) => process.stdout.write(`[standins] ${line}\n`);
  buildStandInImages(log).then(
    (refs) => log(`built ${refs.join(' ')}`),
    (error: unknown) => {
      process.stderr.write(`[standins] ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
