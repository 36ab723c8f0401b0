import type { RuntimeConfig } from '@logovote/contracts';

export const RUNTIME_CONFIG_URL = '/runtime-config.json';

let pending: Promise<RuntimeConfig> | null = null;

async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  // The schema (and zod) load in their own chunk, in parallel with the document: pages that never
  // load a remote (terms, test tools, 404) do not pay for them.
  const [contracts, response] = await Promise.all([
    import(/* webpackChunkName: "contracts" */ '@logovote/contracts'),
    fetch(RUNTIME_CONFIG_URL, { cache: 'no-cache', headers: { Accept: 'application/json' } }),
  ]);
  if (!response.ok) throw new Error(`${RUNTIME_CONFIG_URL}: HTTP ${response.status}`);
  return contracts.RuntimeConfig.parse(await response.json());
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
