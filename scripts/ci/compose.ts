/**
 * Reads docker-compose.yml the way docker compose does before it validates: YAML with merge keys (<<), then
 * variable interpolation from an env file ($VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error},
 * ${VAR?error}, ${VAR:+alt}, ${VAR+alt}; $$ is a literal $).
 */
import { readFileSync } from 'node:fs';
import YAML from 'yaml';

export type ComposeScalar = string | number | boolean | null;
export type ComposeValue = ComposeScalar | ComposeValue[] | { [key: string]: ComposeValue };

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string; target?: string; args?: Record<string, ComposeScalar> | string[] };
  environment?: Record<string, string | number | boolean | null>;
  ports?: unknown[];
  expose?: unknown[];
  healthcheck?: { test?: unknown; disable?: boolean };
  depends_on?: Record<string, { condition?: string }>;
  restart?: string;
  networks?: string[] | Record<string, unknown>;
  volumes?: unknown[];
  [key: string]: unknown;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  [key: string]: unknown;
}

/** KEY=value lines of a .env file (comments and blank lines skipped, surrounding quotes removed). */
export function parseEnvFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match) throw new Error(`cannot parse env line: ${raw}`);
    let value = match[2]!;
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    env[match[1]!] = value;
  }
  return env;
}

const VARIABLE = /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** Every variable a string refers to. */
export function variablesIn(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((match) => match[1] ?? match[4]).filter((name): name is string => name !== undefined);
}

export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    VARIABLE,
    (whole, braced: string | undefined, op: string | undefined, word: string | undefined, bare: string | undefined) => {
      if (whole === '$$') return '$';
      const name = (braced ?? bare)!;
      const value = env[name];
      const set = value !== undefined;
      const nonEmpty = set && value !== '';
      switch (op) {
        case ':-':
          return nonEmpty ? value! : word!;
        case '-':
          return set ? value! : word!;
        case ':?':
          if (!nonEmpty) throw new Error(`${name}: ${word || 'required'}`);
          return value!;
        case '?':
          if (!set) throw new Error(`${name}: ${word || 'required'}`);
          return value!;
        case ':+':
          return nonEmpty ? word! : '';
        case '+':
          return set ? word! : '';
        default:
          return value ?? '';
      }
    },
  );
}

function mapStrings(value: ComposeValue, fn: (text: string) => string): ComposeValue {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, fn));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, fn)]));
  return value;
}

/** The compose file as written (merge keys resolved, variables not yet interpolated). */
export function readComposeRaw(file: string): ComposeValue {
  return YAML.parse(readFileSync(file, 'utf8'), { merge: true }) as ComposeValue;
}

/** Every variable the compose file uses, anywhere. */
export function composeVariables(raw: ComposeValue): Set<string> {
  const names = new Set<string>();
  mapStrings(raw, (text) => {
    for (const name of variablesIn(text)) names.add(name);
    return text;
  });
  return names;
}

export function interpolateCompose(raw: ComposeValue, env: Record<string, string | undefined>): ComposeFile {
  return mapStrings(raw, (text) => interpolate(text, env)) as unknown as ComposeFile;
}

/** A service's environment as the container gets it (list or map form), all values strings. */
export function serviceEnvironment(service: ComposeService): Record<string, string> {
  const environment = service.environment ?? {};
  const entries = Array.isArray(environment)
    ? (environment as string[]).map((item) => [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)])
    : Object.entries(environment).map(([key, value]) => [key, value === null ? '' : String(value)]);
  return Object.fromEntries(entries) as Record<string, string>;
}

/** An image compose builds: its service, and what `docker build` is told (paths relative to the compose file). */
export interface ComposeBuild {
  service: string;
  context: string;
  /** The Dockerfile, relative to the context. */
  dockerfile: string;
  target?: string;
  /** The --build-arg values (map or list form; an argument without a value is left out, as compose does when unset). */
  args: Record<string, string>;
}

export function composeBuilds(compose: ComposeFile): ComposeBuild[] {
  return Object.entries(compose.services).flatMap(([service, { build }]) => {
    if (build === undefined) return [];
    const spec = typeof build === 'string' ? { context: build } : build;
    const entries: [string, ComposeScalar | undefined][] = Array.isArray(spec.args)
      ? spec.args.map((item) =>
          item.includes('=') ? [item.slice(0, item.indexOf('=')), item.slice(item.indexOf('=') + 1)] : [item, undefined],
        )
      : Object.entries(spec.args ?? {});
    const args = Object.fromEntries(
      entries
        .filter((entry): entry is [string, ComposeScalar] => entry[1] !== undefined && entry[1] !== null)
        .map(([name, value]) => [name, String(value)]),
    );
    return [{ service, context: spec.context ?? '.', dockerfile: spec.dockerfile ?? 'Dockerfile', target: spec.target, args }];
  });
}
