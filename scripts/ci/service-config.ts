/**
 * What a service's configuration (services/<name>/src/config.ts) makes of an environment, so tests/deploy can
 * hold docker-compose.yml and the Helm chart to each service's real settings without a list kept by hand:
 *   tsx --conditions=source scripts/ci/service-config.ts < {"<service>": {<environment>}, ...}
 * prints, for each service, { read, required, error, config }: every variable its configuration reads, those it
 * cannot do without, its complaint about this environment (null when it accepts it), and the configuration.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type LoadConfig = (env: NodeJS.ProcessEnv) => unknown;

export interface ServiceConfigReport {
  read: string[];
  required: string[];
  error: string | null;
  config: Record<string, unknown> | null;
}

function attempt(loadConfig: LoadConfig, env: NodeJS.ProcessEnv): { error: string | null; config: Record<string, unknown> | null } {
  try {
    return { error: null, config: loadConfig(env) as Record<string, unknown> };
  } catch (error: unknown) {
    return { error: error instanceof Error ? error.message : String(error), config: null };
  }
}

export function inspectServiceConfig(loadConfig: LoadConfig, env: Record<string, string>): ServiceConfigReport {
  const read = new Set<string>();
  // An empty environment that notes every name looked up: the configuration names all it reads, and
  // complains about the ones it requires (parseEnv lists each as "  NAME: reason").
  const recorder = new Proxy({} as NodeJS.ProcessEnv, {
    get: (_, name) => {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
    has: (_, name) => {
      if (typeof name === 'string') read.add(name);
      return false;
    },
  });
  const empty = attempt(loadConfig, recorder);
  const required = [...(empty.error ?? '').matchAll(/^ {2}([A-Z][A-Z0-9_]*): /gm)].map((match) => match[1]!);
  return { read: [...read].sort(), required, ...attempt(loadConfig, env) };
}

function main(): void {
  const requests = JSON.parse(readFileSync(0, 'utf8')) as Record<string, Record<string, string>>;
  const reports: Record<string, ServiceConfigReport> = {};
  for (const [service, env] of Object.entries(requests)) {
    if (!/^[a-z]+$/.test(service)) throw new Error(`not a service name: ${service}`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { loadConfig } = require(join(__dirname, '..', '..', 'services', service, 'src', 'config.ts')) as { loadConfig: LoadConfig };
    reports[service] = inspectServiceConfig(loadConfig, env);
  }
  process.stdout.write(JSON.stringify(reports));
}

if (require.main === module) main();
