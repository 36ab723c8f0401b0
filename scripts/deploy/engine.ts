/**
 * The container engine of the deployment tier: Debian's podman with the project's configuration
 * (.tools/bin/podman, scripts/install-infra.sh) and Docker's compose CLI, and the stand-in base images the
 * installer imported into podman's storage.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensureInfraInstalled, repoRoot, toolPath } from '@logovote/devstack';

/** The installer's tools this tier runs. */
export const ENGINE_TOOLS = ['podman', 'docker-compose', 'mc', 'base-images'];

/** Installs (or, when cached, only links) podman, compose, mc and the stand-in base images. */
export function ensureEngineInstalled(): void {
  ensureInfraInstalled(ENGINE_TOOLS);
}

export function podmanPath(): string {
  return toolPath('podman');
}

/**
 * Runs a podman command that adds or removes images (build, rmi), one at a time across processes (flock beside
 * podman's storage configuration). A build's layer-cache check walks every image in the storage and fails with
 * "layer not known" when another process removes one meanwhile; and the compose and kubernetes projects build the
 * same images, so the build that waits then finds every layer of its image built.
 */
export function changeImages(args: string[], options: RunOptions = {}): Promise<string> {
  const lock = join(dirname(realpathSync(podmanPath())), '..', 'image-build.lock');
  return run('flock', [lock, podmanPath(), ...args], options);
}

/** Where scripts/install-infra.sh names the stand-in base images (NODE_BASE_IMAGE, GATEWAY_BASE_IMAGE). */
export const baseImagesEnvFile = join(repoRoot, '.tools', 'base-images.env');

/** The stand-in base image of the Node images (the stand-ins of deploy/standins are built on it too). */
export function nodeBaseImage(): string {
  const line = readFileSync(baseImagesEnvFile, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('NODE_BASE_IMAGE='));
  if (!line) throw new Error(`${baseImagesEnvFile} names no NODE_BASE_IMAGE: run scripts/install-infra.sh --only base-images`);
  return line.slice('NODE_BASE_IMAGE='.length);
}

/**
 * compose's arguments for docker-compose.yml with these settings (an .env file), and with deploy/compose.standins.yml
 * (and the stand-in bases' names) when standIns is set.
 */
export function composeFileArgs(envFile: string, { standIns }: { standIns: boolean }): string[] {
  const files = standIns ? ['docker-compose.yml', join('deploy', 'compose.standins.yml')] : ['docker-compose.yml'];
  return [
    '--project-directory',
    repoRoot,
    ...files.flatMap((file) => ['-f', join(repoRoot, file)]),
    '--env-file',
    envFile,
    ...(standIns ? ['--env-file', baseImagesEnvFile] : []),
  ];
}

/**
 * The environment compose runs with: the file's variables come from its .env file and the variables given, never
 * from the calling process (`npm test` sets CSRF_SECRET and IP_HASH_SALT for its own stack).
 */
export function composeEnvironment(variables: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { PATH, HOME, TMPDIR } = process.env;
  return { PATH, HOME, ...(TMPDIR ? { TMPDIR } : {}), ...variables };
}

/** A service of the compose file as Docker's compose CLI reads it (`config --format json`: long syntax, absolute paths). */
export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string | null>;
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  ports?: { target: number; published?: string; host_ip?: string }[];
  networks?: Record<string, unknown>;
  restart?: string;
  volumes?: { type: string; source: string; target: string; read_only?: boolean }[];
}

export interface ComposeConfig {
  services: Record<string, ComposeService>;
  networks?: Record<string, { internal?: boolean }>;
}

/** The compose file (with the stand-ins when asked) as Docker's compose CLI reads it, with an .env file and these variables. */
export function readComposeConfig(envFile: string, options: { standIns: boolean; variables?: Record<string, string> }): ComposeConfig {
  const output = execFileSync(toolPath('docker-compose'), [...composeFileArgs(envFile, options), 'config', '--format', 'json'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: composeEnvironment(options.variables),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return JSON.parse(output) as ComposeConfig;
}

export interface RunOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Each line of the command's output (stdout and stderr), as it comes. */
  onLine?: (line: string) => void;
}

/** Runs a command to its end; resolves with its stdout, rejects with the end of its output when it fails. */
export function run(command: string, args: string[], options: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? repoRoot,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let tail: string[] = [];
    const collect = (chunk: Buffer, isStdout: boolean) => {
      const text = chunk.toString('utf8');
      if (isStdout) stdout += text;
      for (const line of text.split('\n').filter(Boolean)) {
        options.onLine?.(line);
        tail = [...tail.slice(-39), line];
      }
    };
    child.stdout.on('data', (chunk: Buffer) => collect(chunk, true));
    child.stderr.on('data', (chunk: Buffer) => collect(chunk, false));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} failed (${code === null ? `signal ${String(signal)}` : `exit code ${code}`}):\n${tail.join('\n')}`,
          ),
        );
    });
  });
}
