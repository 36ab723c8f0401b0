/**
 * A Dockerfile parser for the subset LogoVote's Dockerfiles use (and anything else fails loudly): comments,
 * line continuations, global and stage ARGs, FROM ... AS, WORKDIR, COPY [--from] [--chown], RUN [--mount],
 * ENV, LABEL, USER, EXPOSE, HEALTHCHECK, CMD and ENTRYPOINT in shell or exec (JSON) form.
 */

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
export function substitute(text: string, vars: Record<string, string | undefined>): string {
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

/** What the last stage declares for the container (following FROM <earlier stage>), read without building. */
export interface ImageMetadata {
  /** The external image the last stage descends from. */
  baseImage: string;
  env: Record<string, string>;
  user: string | undefined;
  exposedPorts: number[];
  healthcheck: Healthcheck | undefined;
  cmd: string[] | undefined;
  stageCount: number;
}

export function imageMetadata(dockerfile: Dockerfile): ImageMetadata {
  const globalArgs = Object.fromEntries(dockerfile.globalArgs.flatMap((arg) => parseAssignments(arg.args)));
  const chain: Stage[] = [];
  for (let stage = dockerfile.stages.at(-1); stage;) {
    chain.unshift(stage);
    const from = substitute(stage.from, globalArgs);
    stage = dockerfile.stages.find((candidate) => candidate.name === from);
  }
  const metadata: ImageMetadata = {
    baseImage: substitute(chain[0]!.from, globalArgs),
    env: {},
    user: undefined,
    exposedPorts: [],
    healthcheck: undefined,
    cmd: undefined,
    stageCount: dockerfile.stages.length,
  };
  for (const instruction of chain.flatMap((stage) => stage.instructions)) {
    if (instruction.keyword === 'ENV')
      for (const [name, value] of parseAssignments(instruction.args)) metadata.env[name] = substitute(value, metadata.env);
    if (instruction.keyword === 'USER') metadata.user = instruction.args;
    if (instruction.keyword === 'EXPOSE')
      metadata.exposedPorts.push(...instruction.args.split(/\s+/).map((port) => Number(port.split('/')[0])));
    if (instruction.keyword === 'HEALTHCHECK') metadata.healthcheck = parseHealthcheck(instruction);
    if (instruction.keyword === 'CMD') metadata.cmd = instruction.exec ?? ['/bin/sh', '-c', instruction.args];
  }
  return metadata;
}
