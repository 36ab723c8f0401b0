/**
 * A Dockerfile parser for the subset LogoVote's Dockerfile uses (and anything else fails loudly): comments,
 * line continuations, global and stage ARGs, FROM ... AS, WORKDIR, COPY [--from] [--chown], RUN [--mount],
 * ENV, LABEL, USER, EXPOSE, HEALTHCHECK, CMD and ENTRYPOINT in shell or exec (JSON) form; and Docker's rules for
 * build arguments (--build-arg) and the stage a build stops at (--target).
 */
import { posix } from 'node:path';

/** Variables in scope: an ARG declared without a value is there, unset. */
export type Vars = Record<string, string | undefined>;

export interface Instruction {
  /** Upper-case keyword, e.g. COPY. */
  keyword: string;
  /** Leading --name=value options, e.g. { from: 'build' }. */
  flags: Record<string, string>;
  /** The arguments after the flags, as written (variables not substituted). */
  args: string;
  /** The arguments in exec form (a JSON array), when written so. */
  exec?: string[];
  /** 1-based line of the keyword, for messages. */
  line: number;
}

export interface Stage {
  /** The image or earlier stage it starts from, as written (may contain ${ARG}). */
  from: string;
  name?: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  /** ARGs before the first FROM, usable in FROM lines. */
  globalArgs: Instruction[];
  stages: Stage[];
}

const FLAG = /^--([a-z-]+)(?:=(\S*))?\s+/;

function logicalLines(text: string): { text: string; line: number }[] {
  const lines = text.split('\n');
  const out: { text: string; line: number }[] = [];
  let current = '';
  let start = 0;
  lines.forEach((raw, index) => {
    const trimmed = raw.trim();
    // Comment lines are dropped, also in the middle of a continued instruction (as Docker does).
    if (trimmed.startsWith('#') || (trimmed === '' && current === '')) return;
    if (current === '') start = index + 1;
    if (trimmed.endsWith('\\')) {
      current += `${trimmed.slice(0, -1)} `;
      return;
    }
    current += trimmed;
    out.push({ text: current.trim(), line: start });
    current = '';
  });
  if (current.trim()) out.push({ text: current.trim(), line: start });
  return out;
}

export function parseInstruction(text: string, line: number): Instruction {
  const match = /^(\S+)\s*(.*)$/s.exec(text);
  if (!match) throw new Error(`line ${line}: cannot parse "${text}"`);
  const keyword = match[1]!.toUpperCase();
  let rest = match[2]!;
  const flags: Record<string, string> = {};
  for (let flag = FLAG.exec(rest); flag; flag = FLAG.exec(rest)) {
    flags[flag[1]!] = flag[2] ?? 'true';
    rest = rest.slice(flag[0].length);
  }
  const instruction: Instruction = { keyword, flags, args: rest.trim(), line };
  if (instruction.args.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(instruction.args);
      if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) instruction.exec = parsed;
    } catch {
      // Not JSON: shell form, as Docker treats it.
    }
  }
  return instruction;
}

export function parseDockerfile(text: string): Dockerfile {
  const result: Dockerfile = { globalArgs: [], stages: [] };
  for (const { text: lineText, line } of logicalLines(text)) {
    const instruction = parseInstruction(lineText, line);
    if (instruction.keyword === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!from) throw new Error(`line ${line}: cannot parse FROM ${instruction.args}`);
      result.stages.push({ from: from[1]!, name: from[2], instructions: [] });
    } else if (result.stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`line ${line}: only ARG may come before the first FROM`);
      result.globalArgs.push(instruction);
    } else {
      result.stages.at(-1)!.instructions.push(instruction);
    }
  }
  if (result.stages.length === 0) throw new Error('no FROM instruction');
  return result;
}

/** `NAME=value NAME2="two words"` (ENV, LABEL, ARG) into pairs; `ENV NAME value` (legacy) too. */
export function parseAssignments(args: string): [string, string][] {
  const pairs: [string, string][] = [];
  const legacy = /^([A-Za-z_][A-Za-z0-9_]*)\s+([^=].*)$/s.exec(args);
  if (legacy && !args.includes('=')) return [[legacy[1]!, legacy[2]!]];
  const pattern = /([A-Za-z_][A-Za-z0-9_.-]*)(?:=("(?:[^"\\]|\\.)*"|'[^']*'|\S*))?/g;
  for (const match of args.matchAll(pattern)) {
    const raw = match[2];
    let value = raw ?? '';
    if (value.startsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    else if (value.startsWith("'")) value = value.slice(1, -1);
    pairs.push([match[1]!, value]);
  }
  return pairs;
}

/** Docker's variable substitution in instruction arguments: $NAME, ${NAME}, ${NAME:-default}, ${NAME:+alt}. */
export function substitute(text: string, vars: Vars): string {
  return text.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::([-+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_, braced, op, word, bare) => {
    const value = vars[(braced ?? bare) as string];
    if (op === '-') return value ? value : (word as string);
    if (op === '+') return value ? (word as string) : '';
    return value ?? '';
  });
}

/** HEALTHCHECK options and command. */
export interface Healthcheck {
  command: string[];
  intervalMs: number;
  timeoutMs: number;
  startPeriodMs: number;
  retries: number;
}

function durationMs(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(value);
  if (!match) throw new Error(`cannot parse duration ${value}`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * unit;
}

export function parseHealthcheck(instruction: Instruction): Healthcheck {
  const inner = parseInstruction(instruction.args, instruction.line);
  if (inner.keyword !== 'CMD') throw new Error(`line ${instruction.line}: HEALTHCHECK must be followed by CMD`);
  return {
    command: inner.exec ?? ['/bin/sh', '-c', inner.args],
    intervalMs: durationMs(instruction.flags.interval, 30_000),
    timeoutMs: durationMs(instruction.flags.timeout, 30_000),
    startPeriodMs: durationMs(instruction.flags['start-period'], 0),
    retries: Number(instruction.flags.retries ?? 3),
  };
}

/** The index of a stage named (or numbered) so, if it is one: what FROM and COPY --from refer to. */
export function stageIndex(dockerfile: Dockerfile, reference: string): number | undefined {
  const byName = dockerfile.stages.findIndex((stage) => stage.name !== undefined && stage.name.toLowerCase() === reference.toLowerCase());
  if (byName >= 0) return byName;
  return /^\d+$/.test(reference) && Number(reference) < dockerfile.stages.length ? Number(reference) : undefined;
}

/** The stage `docker build --target <name>` stops at; without a target, the last one. */
export function targetIndex(dockerfile: Dockerfile, target?: string): number {
  if (target === undefined) return dockerfile.stages.length - 1;
  const byName = dockerfile.stages.findIndex((stage) => stage.name !== undefined && stage.name.toLowerCase() === target.toLowerCase());
  if (byName < 0) throw new Error(`--target ${target}: no stage of that name`);
  return byName;
}

/** Build arguments Docker defines itself: accepted without an ARG line. */
const PREDEFINED_ARGS = new Set(
  ['HTTP_PROXY', 'HTTPS_PROXY', 'FTP_PROXY', 'NO_PROXY', 'ALL_PROXY'].flatMap((name) => [name, name.toLowerCase()]),
);

/** The values of the ARGs before the first FROM (usable in FROM lines, and by `ARG NAME` in a stage). */
export function globalArgValues(dockerfile: Dockerfile, buildArgs: Record<string, string> = {}): Vars {
  const values: Vars = {};
  for (const arg of dockerfile.globalArgs) declareArgs(arg, values, buildArgs, {});
  return values;
}

/**
 * An ARG line's effect on the variables in scope, as Docker applies it: a --build-arg value wins; else the
 * line's default (`ARG NAME=default`, its variables substituted); else, for `ARG NAME` in a stage, the global
 * ARG's value; else the variable is declared but unset (and substitutes as empty).
 */
export function declareArgs(instruction: Instruction, scope: Vars, buildArgs: Record<string, string>, globalArgs: Vars): void {
  for (const [name, value] of parseAssignments(instruction.args)) {
    const hasDefault = new RegExp(`(^|\\s)${name.replace(/[.]/g, '\\.')}=`).test(instruction.args);
    if (name in buildArgs) scope[name] = buildArgs[name];
    else if (hasDefault) scope[name] = substitute(value, scope);
    else scope[name] = globalArgs[name];
  }
}

/**
 * The stages a build of `target` runs, in order: the target, the stages it starts FROM, and those it copies
 * from (COPY --from, RUN --mount=from=), recursively; BuildKit skips every other stage.
 */
export function stagesFor(dockerfile: Dockerfile, target?: string, buildArgs: Record<string, string> = {}): number[] {
  const globals = globalArgValues(dockerfile, buildArgs);
  const needed = new Set<number>();
  const visit = (index: number) => {
    if (needed.has(index)) return;
    needed.add(index);
    const stage = dockerfile.stages[index]!;
    const scope: Vars = {};
    const references = [substitute(stage.from, globals)];
    for (const instruction of stage.instructions) {
      if (instruction.keyword === 'ARG') declareArgs(instruction, scope, buildArgs, globals);
      if (instruction.keyword === 'COPY' && instruction.flags.from) references.push(substitute(instruction.flags.from, scope));
      const mountFrom = /(?:^|,)from=([^,]+)/.exec(instruction.flags.mount ?? '')?.[1];
      if (instruction.keyword === 'RUN' && mountFrom) references.push(substitute(mountFrom, scope));
    }
    for (const reference of references) {
      const referenced = stageIndex(dockerfile, reference);
      if (referenced !== undefined && referenced < index) visit(referenced);
    }
  };
  visit(targetIndex(dockerfile, target));
  return [...needed].sort((a, b) => a - b);
}

/**
 * Build arguments no ARG line of the build declares. Docker only warns ("were not consumed"); here it is an
 * error, so a misspelt or forgotten argument in docker-compose.yml is caught.
 */
export function unusedBuildArgs(dockerfile: Dockerfile, target: string | undefined, buildArgs: Record<string, string>): string[] {
  const declared = new Set<string>();
  const lines = [...dockerfile.globalArgs, ...stagesFor(dockerfile, target, buildArgs).flatMap((i) => dockerfile.stages[i]!.instructions)];
  for (const instruction of lines)
    if (instruction.keyword === 'ARG') for (const [name] of parseAssignments(instruction.args)) declared.add(name);
  return Object.keys(buildArgs).filter((name) => !declared.has(name) && !PREDEFINED_ARGS.has(name));
}

/** What an image declares (its target stage, following FROM <earlier stage>), read without building. */
export interface ImageMetadata {
  /** The external image the target stage descends from. */
  baseImage: string;
  env: Record<string, string>;
  labels: Record<string, string>;
  workdir: string;
  user: string | undefined;
  exposedPorts: number[];
  healthcheck: Healthcheck | undefined;
  cmd: string[] | undefined;
  stageCount: number;
  /** The stage the image is (its index). */
  target: number;
}

export interface BuildOptions {
  /** --target: the stage to build (default: the last). */
  target?: string;
  /** --build-arg values. */
  buildArgs?: Record<string, string>;
}

export function imageMetadata(dockerfile: Dockerfile, options: BuildOptions = {}): ImageMetadata {
  const buildArgs = options.buildArgs ?? {};
  const globalArgs = globalArgValues(dockerfile, buildArgs);
  const target = targetIndex(dockerfile, options.target);
  const chain: Stage[] = [];
  for (let stage: Stage | undefined = dockerfile.stages[target]; stage;) {
    chain.unshift(stage);
    const from = stageIndex(dockerfile, substitute(stage.from, globalArgs));
    stage = from !== undefined && from < dockerfile.stages.indexOf(stage) ? dockerfile.stages[from] : undefined;
  }
  const metadata: ImageMetadata = {
    baseImage: substitute(chain[0]!.from, globalArgs),
    env: {},
    labels: {},
    workdir: '/',
    user: undefined,
    exposedPorts: [],
    healthcheck: undefined,
    cmd: undefined,
    stageCount: dockerfile.stages.length,
    target,
  };
  for (const stage of chain) {
    // ARGs are scoped to their stage (a stage FROM another does not inherit them); ENV is inherited, and wins.
    const args: Vars = {};
    const vars = () => ({ ...args, ...metadata.env });
    for (const instruction of stage.instructions) {
      if (instruction.keyword === 'ARG') declareArgs(instruction, args, buildArgs, globalArgs);
      if (instruction.keyword === 'ENV')
        for (const [name, value] of parseAssignments(instruction.args)) metadata.env[name] = substitute(value, vars());
      if (instruction.keyword === 'LABEL')
        for (const [name, value] of parseAssignments(instruction.args)) metadata.labels[name] = substitute(value, vars());
      if (instruction.keyword === 'WORKDIR') metadata.workdir = posix.resolve(metadata.workdir, substitute(instruction.args, vars()));
      if (instruction.keyword === 'USER') metadata.user = substitute(instruction.args, vars());
      if (instruction.keyword === 'EXPOSE')
        metadata.exposedPorts.push(...exposedPorts(substitute(instruction.args, vars()), instruction.line));
      if (instruction.keyword === 'HEALTHCHECK') metadata.healthcheck = parseHealthcheck(instruction);
      if (instruction.keyword === 'CMD') metadata.cmd = instruction.exec ?? ['/bin/sh', '-c', instruction.args];
    }
  }
  return metadata;
}

/** EXPOSE's ports (variables already substituted); none, or one that is not a port, is an error. */
export function exposedPorts(args: string, line: number): number[] {
  const ports = args
    .split(/\s+/)
    .filter((port) => port !== '')
    .map((port) => Number(port.split('/')[0]));
  if (ports.length === 0 || ports.some((port) => !Number.isInteger(port) || port <= 0 || port > 65535))
    throw new Error(`line ${line}: EXPOSE "${args}" is no port (a build argument missing?)`);
  return ports;
}
