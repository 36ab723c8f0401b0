import { spawnSync } from 'node:child_process';
import { repoRoot } from '@logovote/devstack';

/** Runs an npm script at the repository root with inherited output; throws naming the step that failed. */
export function runNpmScript(script: string): void {
  const result = spawnSync('npm', ['run', '--silent', script], { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run ${script} failed (exit ${result.status ?? result.signal})`);
}
