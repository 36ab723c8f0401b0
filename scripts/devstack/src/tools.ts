import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installInfraScript, repoRoot, toolsBinDir } from './paths';

export type ToolName =
  | 'ferretdb'
  | 'minio'
  | 'maildev'
  | 'nginx'
  | 'chromium'
  | 'k6'
  | 'helm'
  | 'kubeconform'
  | 'lighthouse'
  | 'lighthouse-node'
  | 'postgres'
  | 'initdb'
  | 'pg_isready'
  | 'psql'
  | 'podman'
  | 'docker-compose'
  | 'mc'
  | 'kube-apiserver'
  | 'kube-controller-manager'
  | 'kube-scheduler'
  | 'kubelet'
  | 'kube-proxy'
  | 'kubectl'
  | 'kube-pause'
  | 'coredns'
  | 'etcd'
  | 'containerd'
  | 'ctr'
  | 'runc';

/** The install-infra.sh tool that links each binary not named after its own tool. */
const INSTALLED_BY: Partial<Record<ToolName, string>> = {
  'lighthouse-node': 'lighthouse',
  postgres: 'postgresql',
  initdb: 'postgresql',
  pg_isready: 'postgresql',
  psql: 'postgresql',
  'kube-apiserver': 'kubernetes',
  'kube-controller-manager': 'kubernetes',
  'kube-scheduler': 'kubernetes',
  kubelet: 'kubernetes',
  'kube-proxy': 'kubernetes',
  kubectl: 'kubernetes',
  'kube-pause': 'kubernetes',
  etcd: 'kube-node',
  containerd: 'kube-node',
  ctr: 'kube-node',
  runc: 'kube-node',
};

/** The install-infra.sh tool (its `--only` name) that installs this binary. */
export function installerToolOf(name: ToolName): string {
  return INSTALLED_BY[name] ?? name;
}

/** .tools/bin/<name>; throws if the link is missing or dangling (cache wiped). */
export function toolPath(name: ToolName): string {
  const p = path.join(toolsBinDir, name);
  try {
    fs.accessSync(p, fs.constants.X_OK); // follows the symlink into the cache
  } catch {
    throw new Error(
      `${name} is not installed (${p} is missing or points nowhere). ` +
        `Run: bash scripts/install-infra.sh --only ${installerToolOf(name)}   (or without --only for everything)`,
    );
  }
  return p;
}

/**
 * Runs scripts/install-infra.sh synchronously (stdio inherited so build progress
 * shows). Cheap when everything is cached: it only checks binaries and links.
 */
export function ensureInfraInstalled(tools?: string[]): void {
  const args = [installInfraScript];
  if (tools && tools.length > 0) args.push('--only', tools.join(','));
  const r = spawnSync('bash', args, { cwd: repoRoot, stdio: 'inherit' });
  if (r.error) throw new Error(`could not run ${installInfraScript}: ${r.error.message}`);
  if (r.status !== 0) {
    const how = r.status === null ? `signal ${String(r.signal)}` : `exit code ${r.status}`;
    throw new Error(`scripts/install-infra.sh ${args.slice(1).join(' ')} failed (${how}); see its output above`);
  }
}
