import * as fs from 'node:fs';
import * as path from 'node:path';

// Walk up from this file (src/ when run from source, dist/ when compiled) to the
// directory holding scripts/install-infra.sh, so both layouts resolve the same root.
function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'scripts', 'install-infra.sh'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) {
      throw new Error(`@logovote/devstack: cannot find the repo root (scripts/install-infra.sh) above ${start}`);
    }
    dir = parent;
  }
}

export const repoRoot: string = findRepoRoot(__dirname);

/** Where scripts/install-infra.sh links the infrastructure binaries. */
export const toolsBinDir: string = path.join(repoRoot, '.tools', 'bin');

export const installInfraScript: string = path.join(repoRoot, 'scripts', 'install-infra.sh');
