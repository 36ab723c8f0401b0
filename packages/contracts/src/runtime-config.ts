import { z } from 'zod';

export const REMOTE_NAMES = ['create', 'vote', 'results', 'admin'] as const;
export const RemoteName = z.enum(REMOTE_NAMES);
export type RemoteName = z.infer<typeof RemoteName>;

/**
 * The document the gateway serves at /runtime-config.json. The shell reads it at start, so a remote
 * can move or be redeployed without rebuilding the shell.
 */
export const RuntimeConfig = z.object({
  remotes: z.record(RemoteName, z.object({ manifestUrl: z.string().min(1) })),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
