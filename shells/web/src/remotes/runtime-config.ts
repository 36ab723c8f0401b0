import { RuntimeConfig } from '@logovote/contracts/runtime-config';
import * as z from 'zod/mini';

import { embeddedText } from '@logovote/web-client/page-poll';

export const RUNTIME_CONFIG_URL = '/runtime-config.json';
/** The <template> the gateway writes the runtime configuration into (shells/web/index.html). */
const EMBEDDED_CONFIG_ID = 'logovote-runtime-config';

let pending: Promise<RuntimeConfig> | null = null;

/** Checks a runtime configuration document against the contract's schema: every remote, no other, each with a manifestUrl. */
export function parseRuntimeConfig(value: unknown, source: string = RUNTIME_CONFIG_URL): RuntimeConfig {
  const result = RuntimeConfig.safeParse(value);
  if (!result.success) throw new Error(`${source}: ${z.prettifyError(result.error)}`);
  return result.data;
}

async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch(RUNTIME_CONFIG_URL, { cache: 'no-cache', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${RUNTIME_CONFIG_URL}: HTTP ${response.status}`);
  return parseRuntimeConfig(await response.json());
}

/** The configuration the page's HTML carries (written by the gateway), if any. */
function embeddedRuntimeConfig(): RuntimeConfig | undefined {
  const text = embeddedText(EMBEDDED_CONFIG_ID);
  return text ? parseRuntimeConfig(JSON.parse(text), `#${EMBEDDED_CONFIG_ID}`) : undefined;
}

/**
 * The runtime configuration, read once: from the page's HTML when the gateway wrote it there, else
 * fetched from /runtime-config.json. A failed attempt is forgotten, so the next caller (e.g. a 'Try
 * again' click) fetches it again.
 */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  pending ??= Promise.resolve()
    .then(() => embeddedRuntimeConfig() ?? fetchRuntimeConfig())
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}
