// zod/mini: the shell validates this document in the browser on every page's first load, where
// classic zod's whole API would cost ~26 kB (gzip); mini's functions are tree-shaken to what is used.
import * as z from 'zod/mini';

export const REMOTE_NAMES = ['create', 'vote', 'results', 'admin'] as const;
export const RemoteName = z.enum(REMOTE_NAMES);
export type RemoteName = z.infer<typeof RemoteName>;

/**
 * Where each remote is deployed: the gateway serves it at /runtime-config.json and writes it into
 * every page's HTML. The shell reads it at start, so a remote can move or be redeployed without
 * rebuilding the shell. Every remote must be listed (a record over an enum is exhaustive), no other.
 */
export const RuntimeConfig = z.object({
  remotes: z.record(RemoteName, z.object({ manifestUrl: z.string().check(z.minLength(1)) })),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
