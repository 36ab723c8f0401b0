import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { renderNginxConf, toolPath } from '@logovote/devstack';
import YAML from 'yaml';
import type { ServiceConfigReport } from '../../scripts/ci/service-config';

export const repoRoot = join(__dirname, '..', '..');
export const chartDir = join(repoRoot, 'charts', 'logovote');

export const SERVICES = ['sessions', 'votes', 'media', 'notify'] as const;
export const REMOTES = ['create', 'vote', 'results', 'admin'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Workspace folder of each deployable component. */
export const WORKSPACES: Record<string, string> = {
  sessions: 'services/sessions',
  votes: 'services/votes',
  media: 'services/media',
  notify: 'services/notify',
  shell: 'shells/web',
  create: 'mfes/create',
  vote: 'mfes/vote',
  results: 'mfes/results',
  admin: 'mfes/admin',
};

export function packageVersion(workspace: string): string {
  return (JSON.parse(readFileSync(join(repoRoot, workspace, 'package.json'), 'utf8')) as { version: string }).version;
}

/** A pinned tool of scripts/install-infra.sh (installed on first use, cached after). */
export function tool(name: 'helm' | 'kubeconform' | 'nginx'): string {
  const path = join(repoRoot, '.tools', 'bin', name);
  if (!existsSync(path)) {
    const result = spawnSync('bash', [join(repoRoot, 'scripts', 'install-infra.sh'), '--only', name], { stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`scripts/install-infra.sh --only ${name} failed`);
  }
  return path;
}

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** helm template of the chart with a values file (relative to the chart) and --set overrides. */
export function helmTemplate(valuesFile: string | undefined, set: string[] = []): { yaml: string; manifests: Manifest[] } {
  const args = ['template', 'lv', chartDir, '--kube-version', KUBERNETES_VERSION];
  if (valuesFile) args.push('-f', join(chartDir, valuesFile));
  for (const value of set) args.push('--set', value);
  const yaml = execFileSync(tool('helm'), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const manifests = YAML.parseAllDocuments(yaml)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((doc): doc is Manifest => doc !== null);
  return { yaml, manifests };
}

/** The variables docker-compose.yml uses, as Docker's compose CLI lists them (`config --variables`). */
export function composeVariables(envFile: string): Record<string, { Required: boolean; DefaultValue: string }> {
  const output = execFileSync(
    toolPath('docker-compose'),
    [
      '--project-directory',
      repoRoot,
      '-f',
      join(repoRoot, 'docker-compose.yml'),
      '--env-file',
      envFile,
      'config',
      '--variables',
      '--format',
      'json',
    ],
    { encoding: 'utf8', cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return JSON.parse(output) as Record<string, { Required: boolean; DefaultValue: string }>;
}

/** The Kubernetes version the shipped schemas (tests/deploy/schemas/kubernetes) describe. */
export const KUBERNETES_VERSION = '1.33.0';

/** What each service's own configuration makes of an environment (scripts/ci/service-config.ts), in one process. */
export function inspectServices(envs: Record<ServiceName, Record<string, string>>): Record<ServiceName, ServiceConfigReport> {
  const output = execFileSync(
    join(repoRoot, 'node_modules', '.bin', 'tsx'),
    ['--conditions=source', join(repoRoot, 'scripts', 'ci', 'service-config.ts')],
    { input: JSON.stringify(envs), encoding: 'utf8', cwd: repoRoot },
  );
  return JSON.parse(output) as Record<ServiceName, ServiceConfigReport>;
}

/**
 * Settings left at a default that points at the machine itself (127.0.0.1:27017, localhost:8080, ...): right
 * for `npm start`, wrong in a container or a pod, so a deployment must set each of them.
 */
export function loopbackDefaults(config: Record<string, unknown>, given: Record<string, string>): string[] {
  return Object.entries(config)
    .filter(([key, value]) => !(key in given) && typeof value === 'string' && /\b(127\.0\.0\.1|localhost|\[::1\])\b/.test(value))
    .map(([key, value]) => `${key}=${String(value)}`);
}

/** The ${NAME} placeholders of the gateway template. */
export function gatewayPlaceholders(): string[] {
  const template = readFileSync(join(repoRoot, 'gateway', 'templates', 'default.conf.template'), 'utf8');
  return [...new Set([...template.matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((match) => match[1]!))].sort();
}

/** The gateway's snippets as compose mounts them: each file of gateway/templates/snippets by its path there. */
export function gatewaySnippets(): Record<string, string> {
  const dir = join(repoRoot, 'gateway', 'templates', 'snippets');
  return Object.fromEntries(readdirSync(dir).map((name) => [`snippets/${name}`, readFileSync(join(dir, name), 'utf8')]));
}

/**
 * `nginx -t` on a gateway configuration as a deployment renders it (conf.d files in order), with `besideMain`
 * written next to the main configuration (path relative to its folder → content: the snippets the server block
 * includes, found there as in production's /etc/nginx/templates). Upstream host names resolve only inside
 * compose's network or the cluster, so they are pointed at 127.0.0.1 for the check.
 */
export function nginxCheck(confFiles: string[], besideMain: Record<string, string>): { ok: boolean; output: string } {
  const prefix = mkdtempSync(join(tmpdir(), 'logovote-nginx-check-'));
  try {
    mkdirSync(join(prefix, 'logs'));
    mkdirSync(join(prefix, 'tmp'));
    for (const [path, content] of Object.entries(besideMain)) {
      mkdirSync(dirname(join(prefix, path)), { recursive: true });
      writeFileSync(join(prefix, path), content);
    }
    const body = confFiles.join('\n').replace(/(\bserver\s+)(?![\d.]+:)[a-z0-9.-]+:(\d+)/g, '$1127.0.0.1:$2');
    const confPath = join(prefix, 'nginx.conf');
    writeFileSync(confPath, renderNginxConf(prefix, body));
    const result = spawnSync(tool('nginx'), ['-p', `${prefix}/`, '-c', confPath, '-e', 'stderr', '-t'], { encoding: 'utf8' });
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
}
