/**
 * Reproduces a Dockerfile's build outside Docker (CI has no Docker engine), to prove its commands build and its
 * image starts: `docker build -f <Dockerfile> [--target <stage>] [--build-arg NAME=value ...] .` builds the stages
 * the target needs, each in a directory standing for its root file system; COPY copies from the build context
 * (minus .dockerignore) or from an earlier stage, RUN runs the command in the stage's WORKDIR with its ENV and
 * ARGs (each stage's own, with the build argument values as Docker applies them), and the target's
 * CMD/ENTRYPOINT and HEALTHCHECK run the same way.
 *
 * What differs from Docker, and why it does not weaken the proof:
 * - Base images: `node:<tag>` stands for the host's Node.js, which must have the same major version; no other
 *   base image is accepted. RUN commands use the host's tools (Debian, like the bookworm build stages).
 * - USER and --chown are recorded, not applied (tests/deploy checks statically that the final USER is not root).
 * - A BuildKit cache mount of npm's cache (--mount=type=cache,target=.../.npm) is the host's npm cache, with
 *   npm preferring cached metadata, as a warm cache mount would.
 * - Stages whose instructions and inputs are the same as an earlier stage's are reused, as Docker's layer
 *   cache does, so the install stage every LogoVote image shares runs once per run.
 * - Commands run with a lower CPU priority (nice), so tests running beside them keep their pace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { contextFiles } from './dockerignore';
import {
  declareArgs,
  exposedPorts,
  globalArgValues,
  parseAssignments,
  parseDockerfile,
  parseHealthcheck,
  stageIndex,
  substitute,
  targetIndex,
  unusedBuildArgs,
  type Dockerfile,
  type Healthcheck,
  type Instruction,
  type Stage,
  type Vars,
} from './dockerfile';

export interface ImageConfig {
  env: Record<string, string>;
  workdir: string;
  user: string;
  cmd?: string[];
  entrypoint?: string[];
  healthcheck?: Healthcheck;
  exposedPorts: number[];
  labels: Record<string, string>;
}

export interface BuiltStage {
  key: string;
  rootfs: string;
  config: ImageConfig;
  /** Whether it started from another stage (a full copy of it: large, and of no use to later builds). */
  derived: boolean;
}

export interface BuildSession {
  contextDir: string;
  /** Holds the stages' root file systems. */
  workDir: string;
  /** Stages already built in this session, by the hash of their instructions and inputs. */
  cache: Map<string, BuiltStage>;
  log: (line: string) => void;
}

export interface Image extends BuiltStage {
  /** How it was built, as docker build's options (describeSpec), for messages. */
  name: string;
}

const hash = (...parts: string[]) => {
  const h = createHash('sha256');
  for (const part of parts) h.update(part).update('\0');
  return h.digest('hex');
};

const emptyConfig = (): ImageConfig => ({ env: {}, workdir: '/', user: 'root', exposedPorts: [], labels: {} });
const cloneConfig = (config: ImageConfig): ImageConfig => JSON.parse(JSON.stringify(config)) as ImageConfig;

/** The base images a stage may start from, and the host's stand-in for each. */
function checkBaseImage(image: string): void {
  const node = /^node:(\d+)(?:[.-]|$)/.exec(image);
  if (!node) throw new Error(`base image ${image}: only node:<version> images can be reproduced outside Docker`);
  const hostMajor = process.versions.node.split('.')[0];
  if (node[1] !== hostMajor) throw new Error(`base image ${image}: the host runs Node.js ${process.versions.node}, not ${node[1]}`);
}

function inRootfs(rootfs: string, absolute: string): string {
  return join(rootfs, posix.normalize(absolute));
}

function resolveDest(config: ImageConfig, dest: string): string {
  return dest.startsWith('/') ? dest : posix.join(config.workdir, dest);
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Hash of the files a COPY reads from the build context. */
function contextHash(files: string[], contextDir: string, sources: string[]): string {
  const h = createHash('sha256');
  for (const file of selectContext(files, sources)) {
    const full = join(contextDir, file);
    // Someone may be editing the working tree: a file gone since the listing is simply not in the context.
    if (!existsSync(full) && !isSymlink(full)) continue;
    const stat = lstatSync(full);
    h.update(file).update('\0');
    h.update(stat.isSymbolicLink() ? `link:${readlinkSync(full)}` : readFileSync(full));
    h.update(`\0${stat.mode & 0o111 ? 'x' : '-'}\0`);
  }
  return h.digest('hex');
}

/** Hash of a file or directory tree (names, contents, links, executable bits). */
function treeHash(path: string): string {
  const h = createHash('sha256');
  const visit = (full: string, relative: string) => {
    const stat = lstatSync(full);
    h.update(`${relative}\0${stat.mode & 0o111 ? 'x' : '-'}\0`);
    if (stat.isSymbolicLink()) h.update(`link:${readlinkSync(full)}`);
    else if (stat.isDirectory()) for (const entry of readdirSync(full).sort()) visit(join(full, entry), `${relative}/${entry}`);
    else h.update(readFileSync(full));
  };
  if (!existsSync(path)) throw new Error(`COPY --from: ${path} does not exist in that stage`);
  visit(path, '');
  return h.digest('hex');
}

function selectContext(files: string[], sources: string[]): string[] {
  return files.filter((file) =>
    sources.some((source) => {
      const prefix = posix
        .normalize(source)
        .replace(/^\.\/?/, '')
        .replace(/\/$/, '');
      return prefix === '' || prefix === '.' || file === prefix || file.startsWith(`${prefix}/`);
    }),
  );
}

/** Docker merges a copied directory into an existing one, and replaces a copied file. */
function copyEntry(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  if (!lstatSync(from).isDirectory()) rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, force: true, verbatimSymlinks: true, preserveTimestamps: true });
}

/** COPY: a directory source copies its contents; a file goes to dest, or into dest when dest is a directory. */
function applyCopy(
  session: BuildSession,
  files: string[],
  rootfs: string,
  config: ImageConfig,
  sources: string[],
  dest: string,
  from?: BuiltStage,
) {
  const destPath = resolveDest(config, dest);
  const destIsDir = dest.endsWith('/') || sources.length > 1;
  for (const source of sources) {
    if (/[*?[]/.test(source)) throw new Error(`COPY ${source}: wildcards are not reproduced`);
    if (from) {
      const sourcePath = inRootfs(from.rootfs, source.startsWith('/') ? source : posix.join('/', source));
      if (!existsSync(sourcePath)) throw new Error(`COPY --from: ${source} does not exist in that stage`);
      if (statSync(sourcePath).isDirectory()) copyEntry(sourcePath, inRootfs(rootfs, destPath));
      else copyEntry(sourcePath, inRootfs(rootfs, destIsDir ? posix.join(destPath, posix.basename(source)) : destPath));
      continue;
    }
    const normalized = posix.normalize(source).replace(/\/$/, '');
    const selected = selectContext(files, [source]);
    if (selected.length === 0) throw new Error(`COPY ${source}: not in the build context (missing, or excluded by .dockerignore)`);
    const isFile = selected.length === 1 && selected[0] === normalized;
    for (const file of selected) {
      const target = isFile
        ? destIsDir
          ? posix.join(destPath, posix.basename(file))
          : destPath
        : posix.join(destPath, normalized === '.' ? file : file.slice(normalized.length + 1));
      const from = join(session.contextDir, file);
      if (existsSync(from) || isSymlink(from)) copyEntry(from, inRootfs(rootfs, target));
    }
  }
}

function shellOrExec(instruction: Instruction): string[] {
  return instruction.exec ?? ['/bin/sh', '-c', instruction.args];
}

/** The environment a RUN step or a container gets: the image's, on the host's PATH and HOME. */
function processEnv(vars: Vars, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: homedir(), ...vars, ...extra };
}

function runStep(session: BuildSession, argv: string[], cwd: string, env: NodeJS.ProcessEnv, label: string): void {
  const started = Date.now();
  const result = spawnSync('nice', ['-n', '10', ...argv], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`${label} failed (exit ${result.status ?? result.signal}) after ${seconds}s:\n${output}`);
  }
  session.log(`${label} (${seconds}s)`);
}

/** Cache mounts become the host's cache of the same tool; only npm's is known. */
function cacheMountEnv(instruction: Instruction): Record<string, string> {
  const mount = instruction.flags.mount;
  if (!mount) return {};
  const options = Object.fromEntries(mount.split(',').map((part) => part.split('=') as [string, string]));
  if (options.type !== 'cache' || !options.target?.endsWith('/.npm'))
    throw new Error(`RUN --mount=${mount}: only a cache mount of npm's cache is reproduced`);
  const npmCache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  return { npm_config_cache: npmCache, npm_config_prefer_offline: 'true' };
}

export function readDockerfile(contextDir: string, dockerfile: string): Dockerfile {
  return parseDockerfile(readFileSync(join(contextDir, dockerfile), 'utf8'));
}

/** What `docker build` is told: the Dockerfile (relative to the context), --target and --build-arg values. */
export interface ImageSpec {
  dockerfile: string;
  target?: string;
  buildArgs?: Record<string, string>;
}

/** The spec as a docker build command line says it, for messages. */
export function describeSpec(spec: ImageSpec): string {
  const args = Object.entries(spec.buildArgs ?? {}).map(([name, value]) => ` --build-arg ${name}=${value}`);
  return `-f ${spec.dockerfile}${spec.target ? ` --target ${spec.target}` : ''}${args.join('')}`;
}

/**
 * Builds the stages the target needs (the last stage without a target) and returns the target: the image.
 * Build arguments no ARG of the build declares are an error (Docker would only warn).
 */
export function buildImage(session: BuildSession, spec: ImageSpec): Image {
  const { dockerfile, target } = spec;
  const buildArgs = spec.buildArgs ?? {};
  const name = describeSpec(spec);
  const parsed = readDockerfile(session.contextDir, dockerfile);
  const unused = unusedBuildArgs(parsed, target, buildArgs);
  if (unused.length > 0) throw new Error(`${name}: no ARG of the build declares ${unused.join(', ')}`);
  const files = contextFiles(session.contextDir);
  const globalArgs = globalArgValues(parsed, buildArgs);
  const built = new Map<number, BuiltStage>();

  const buildStage = (index: number): BuiltStage => {
    const existing = built.get(index);
    if (existing) return existing;
    const stage: Stage = parsed.stages[index]!;
    const label = `${dockerfile} [${stage.name ?? index}]`;
    const fromReference = substitute(stage.from, globalArgs);
    const baseIndex = stageIndex(parsed, fromReference);
    if (baseIndex !== undefined && baseIndex >= index) throw new Error(`${label}: FROM ${fromReference} is not an earlier stage`);
    const base = baseIndex !== undefined ? buildStage(baseIndex) : undefined;
    if (!base) checkBaseImage(fromReference);

    // Keys first (like Docker's cache lookup): the same instructions on the same inputs, with the same build
    // argument values, give the same stage.
    const froms = new Map<Instruction, BuiltStage>();
    let key = base ? base.key : hash('FROM', fromReference);
    const keyArgs: Vars = {};
    const keyEnv: Record<string, string> = { ...(base?.config.env ?? {}) };
    const keyVars = () => ({ ...keyArgs, ...keyEnv });
    for (const instruction of stage.instructions) {
      let inputs = '';
      if (instruction.keyword === 'ARG') {
        declareArgs(instruction, keyArgs, buildArgs, globalArgs);
        inputs = JSON.stringify(parseAssignments(instruction.args).map(([arg]) => [arg, keyArgs[arg] ?? null]));
      } else if (instruction.keyword === 'ENV') {
        for (const [variable, value] of parseAssignments(instruction.args)) keyEnv[variable] = substitute(value, keyVars());
      } else if (instruction.keyword === 'COPY') {
        const from = instruction.flags.from;
        if (from) {
          const sourceIndex = stageIndex(parsed, substitute(from, keyVars()));
          if (sourceIndex === undefined || sourceIndex >= index) throw new Error(`${label}: COPY --from=${from} is not an earlier stage`);
          const source = buildStage(sourceIndex);
          froms.set(instruction, source);
          // By content, as Docker does: a rebuilt stage with the same files keeps the next layers cached.
          const paths = (instruction.exec ?? instruction.args.split(/\s+/)).slice(0, -1).map((arg) => substitute(arg, keyVars()));
          inputs = paths.map((path) => treeHash(inRootfs(source.rootfs, path.startsWith('/') ? path : posix.join('/', path)))).join(',');
        } else {
          const args = instruction.exec ?? instruction.args.split(/\s+/);
          inputs = contextHash(
            files,
            session.contextDir,
            args.slice(0, -1).map((arg) => substitute(arg, keyVars())),
          );
        }
      }
      key = hash(key, instruction.keyword, JSON.stringify(instruction.flags), substitute(instruction.args, keyVars()), inputs);
    }
    const cached = session.cache.get(key);
    if (cached) {
      session.log(`${label}: same as a stage built before, reused`);
      built.set(index, cached);
      return cached;
    }

    const rootfs = join(session.workDir, key.slice(0, 16));
    rmSync(rootfs, { recursive: true, force: true });
    mkdirSync(dirname(rootfs), { recursive: true });
    if (base) {
      const started = Date.now();
      const copy = spawnSync('cp', ['-a', '--reflink=auto', base.rootfs, rootfs]);
      if (copy.status !== 0) throw new Error(`${label}: copying the base stage failed: ${copy.stderr.toString()}`);
      session.log(`${label}: FROM ${fromReference} (copied, ${((Date.now() - started) / 1000).toFixed(1)}s)`);
    } else {
      mkdirSync(rootfs, { recursive: true });
      session.log(`${label}: FROM ${fromReference} (the host's Node.js ${process.versions.node})`);
    }
    const config = base ? cloneConfig(base.config) : emptyConfig();
    // ARGs are the stage's own (a stage FROM another does not inherit them); ENV is inherited, and wins.
    const args: Vars = {};
    const stageVars = (): Vars => ({ ...args, ...config.env });

    for (const instruction of stage.instructions) {
      const where = `${label} line ${instruction.line}`;
      switch (instruction.keyword) {
        case 'ARG':
          declareArgs(instruction, args, buildArgs, globalArgs);
          break;
        case 'ENV':
          for (const [variable, value] of parseAssignments(instruction.args)) config.env[variable] = substitute(value, stageVars());
          break;
        case 'LABEL':
          for (const [label, value] of parseAssignments(instruction.args)) config.labels[label] = substitute(value, stageVars());
          break;
        case 'WORKDIR':
          config.workdir = resolveDest(config, substitute(instruction.args, stageVars()));
          mkdirSync(inRootfs(rootfs, config.workdir), { recursive: true });
          break;
        case 'USER':
          config.user = substitute(instruction.args, stageVars());
          break;
        case 'EXPOSE':
          config.exposedPorts.push(...exposedPorts(substitute(instruction.args, stageVars()), instruction.line));
          break;
        case 'CMD':
          config.cmd = shellOrExec(instruction);
          break;
        case 'ENTRYPOINT':
          config.entrypoint = shellOrExec(instruction);
          break;
        case 'HEALTHCHECK':
          config.healthcheck = instruction.args.trim().toUpperCase() === 'NONE' ? undefined : parseHealthcheck(instruction);
          break;
        case 'COPY': {
          const parts = (instruction.exec ?? instruction.args.split(/\s+/)).map((part) => substitute(part, stageVars()));
          if (parts.length < 2) throw new Error(`${where}: COPY needs a source and a destination`);
          const started = Date.now();
          applyCopy(session, files, rootfs, config, parts.slice(0, -1), parts.at(-1)!, froms.get(instruction));
          const from = instruction.flags.from ? ` --from=${instruction.flags.from}` : '';
          session.log(`${where}: COPY${from} ${parts.join(' ')} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
          break;
        }
        case 'RUN': {
          const cwd = inRootfs(rootfs, config.workdir);
          mkdirSync(cwd, { recursive: true });
          const summary = instruction.args.length > 100 ? `${instruction.args.slice(0, 97)}...` : instruction.args;
          runStep(session, shellOrExec(instruction), cwd, processEnv(stageVars(), cacheMountEnv(instruction)), `${where}: RUN ${summary}`);
          break;
        }
        default:
          throw new Error(`${where}: ${instruction.keyword} is not reproduced outside Docker`);
      }
    }
    const result: BuiltStage = { key, rootfs, config, derived: base !== undefined };
    session.cache.set(key, result);
    built.set(index, result);
    return result;
  };

  const image = buildStage(targetIndex(parsed, target));
  return { ...image, name };
}

/** Drops what only this build needed: the stages that copied another stage's whole file system. */
export function forgetDerivedStages(session: BuildSession): void {
  for (const [key, stage] of session.cache) {
    if (!stage.derived) continue;
    rmSync(stage.rootfs, { recursive: true, force: true });
    session.cache.delete(key);
  }
}

/** Maps an absolute program path to the image's copy when the image has one, else the host's (e.g. /bin/sh). */
function program(image: Image, argv0: string): string {
  if (!argv0.startsWith('/')) return argv0;
  const inside = inRootfs(image.rootfs, argv0);
  return existsSync(inside) ? inside : argv0;
}

export interface RunningContainer {
  pid: number;
  logFile: string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/** Starts the image's ENTRYPOINT + CMD in its WORKDIR with its ENV plus `env` (what compose or Kubernetes adds). */
export function startContainer(image: Image, env: Record<string, string>, logFile: string): RunningContainer {
  const argv = image.config.entrypoint
    ? [...image.config.entrypoint, ...(image.config.entrypoint[0] === '/bin/sh' ? [] : (image.config.cmd ?? []))]
    : (image.config.cmd ?? []);
  if (argv.length === 0) throw new Error(`${image.name}: no CMD or ENTRYPOINT`);
  mkdirSync(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const child = spawn(program(image, argv[0]!), argv.slice(1), {
    cwd: inRootfs(image.rootfs, image.config.workdir),
    env: processEnv(image.config.env, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    pid: child.pid!,
    logFile,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

function runOnce(image: Image, env: Record<string, string>, healthcheck: Healthcheck): Promise<boolean> {
  return new Promise((resolve) => {
    const [command, ...args] = healthcheck.command;
    const child = spawn(program(image, command!), args, {
      cwd: inRootfs(image.rootfs, image.config.workdir),
      env: processEnv(image.config.env, env),
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), healthcheck.timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
    child.on('error', () => resolve(false));
  });
}

/**
 * Runs the image's HEALTHCHECK the way Docker judges it: failures during the start period do not count, then
 * `retries` consecutive failures make it unhealthy. Checks every second (not every interval) to save time.
 */
export async function waitHealthy(image: Image, env: Record<string, string>, container: RunningContainer): Promise<void> {
  const healthcheck = image.config.healthcheck;
  if (!healthcheck) throw new Error(`${image.name}: no HEALTHCHECK`);
  const budgetMs = healthcheck.startPeriodMs + healthcheck.retries * healthcheck.intervalMs;
  const deadline = Date.now() + budgetMs;
  let exitCode: number | null | undefined;
  void container.exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined)
      throw new Error(`${image.name}: the container exited (${exitCode}) before it was healthy; see ${container.logFile}`);
    if (await runOnce(image, env, healthcheck)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`${image.name}: HEALTHCHECK still failing after ${budgetMs / 1000}s; see ${container.logFile}`);
}
