import type { RemoteName, RuntimeConfig } from '@logovote/contracts';

import { REMOTES } from './registry';

export const RUNTIME_CONFIG_URL = '/runtime-config.json';

let pending: Promise<RuntimeConfig> | null = null;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks the document against the RuntimeConfig contract: every remote of the registry, no other,
 * each with a non-empty manifestUrl. Written out rather than parsed with the contract's zod schema:
 * zod would add ~26 KB (gzip) to the first load of every page that shows a remote, the voting page
 * included.
 */
export function parseRuntimeConfig(value: unknown): RuntimeConfig {
  const fail = (reason: string): never => {
    throw new Error(`${RUNTIME_CONFIG_URL}: ${reason}`);
  };
  if (!isRecord(value) || !isRecord(value.remotes)) return fail('"remotes" must be an object');
  const names = Object.keys(REMOTES) as RemoteName[];
  const unknown = Object.keys(value.remotes).filter((key) => !(names as string[]).includes(key));
  if (unknown.length > 0) fail(`unknown remotes: ${unknown.join(', ')}`);
  const remotes = {} as RuntimeConfig['remotes'];
  for (const name of names) {
    const entry = value.remotes[name];
    if (!isRecord(entry) || typeof entry.manifestUrl !== 'string' || entry.manifestUrl === '') {
      fail(`remotes.${name}.manifestUrl must be a non-empty string`);
    } else {
      remotes[name] = { manifestUrl: entry.manifestUrl };
    }
  }
  return { remotes };
}

async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch(RUNTIME_CONFIG_URL, { cache: 'no-cache', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${RUNTIME_CONFIG_URL}: HTTP ${response.status}`);
  return parseRuntimeConfig(await response.json());
}

/**
 * Fetches and validates /runtime-config.json once. A failed attempt is forgotten, so the next
 * caller (e.g. a 'Try again' click) fetches it again.
 */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  pending ??= fetchRuntimeConfig().catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}
