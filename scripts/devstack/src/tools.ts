import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installInfraScript, repoRoot, toolsBinDir } from './paths';
import { readLogTail } from './processes';

/** The binaries install-infra.sh links under another tool's name (its `--only` name); every other one is its own tool. */
const BINARIES_OF = {
  lighthouse: ['lighthouse', 'lighthouse-node'],
  postgresql: ['postgres', 'initdb', 'pg_isready', 'psql'],
  kubernetes: ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'kube-proxy', 'kubectl', 'kube-pause'],
  'kube-node': ['etcd', 'containerd', 'ctr', 'runc'],
} as const;
type OwnTool =
  'ferretdb' | 'minio' | 'maildev' | 'nginx' | 'chromium' | 'k6' | 'helm' | 'kubeconform' | 'podman' | 'docker-compose' | 'mc' | 'coredns';
export type ToolName = OwnTool | (typeof BINARIES_OF)[keyof typeof BINARIES_OF][number];

/** The install-infra.sh tool that installs this binary. */
export function installerToolOf(name: ToolName): string {
  return Object.entries(BINARIES_OF).find(([, binaries]) => (binaries as readonly string[]).includes(name))?.[0] ?? name;
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

const installArgs = (tools?: string[]): string[] => [installInfraScript, ...(tools && tools.length > 0 ? ['--only', tools.join(',')] : [])];

function installFailure(args: string[], status: number | null, signal: NodeJS.Signals | null, where: string): Error {
  const how = status === null ? `signal ${String(signal)}` : `exit code ${status}`;
  return new Error(`scripts/install-infra.sh ${args.slice(1).join(' ')} failed (${how}); see ${where}`);
}

/**
 * Runs scripts/install-infra.sh synchronously (stdio inherited so build progress
 * shows). Cheap when everything is cached: it only checks binaries and links.
 */
export function ensureInfraInstalled(tools?: string[]): void {
  const args = installArgs(tools);
  const r = spawnSync('bash', args, { cwd: repoRoot, stdio: 'inherit' });
  if (r.error) throw new Error(`could not run ${installInfraScript}: ${r.error.message}`);
  if (r.status !== 0) throw installFailure(args, r.status, r.signal, 'its output above');
}

/**
 * Runs scripts/install-infra.sh at the lowest CPU priority (nice 19), its output in `logFile`: a build beside
 * other work takes only the CPU that work leaves idle. Waits, as every install does, for one of the same
 * tool already running. Rejects, naming the log, if the install fails.
 */
export function installInfraAside(tools: string[], logFile: string): Promise<void> {
  const args = installArgs(tools);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const out = fs.openSync(logFile, 'a');
  const child = spawn('nice', ['-n', '19', 'bash', ...args], { cwd: repoRoot, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  return new Promise((resolve, reject) => {
    child.on('error', (error) => reject(new Error(`could not run ${installInfraScript}: ${error.message}`)));
    child.on('exit', (status, signal) => {
      if (status === 0) resolve();
      else reject(installFailure(args, status, signal, `${logFile}, which ends:\n${readLogTail(logFile, 20)}`));
    });
  });
}
