import type { RemoteName } from '@logovote/contracts';
import { matchPath } from '@logovote/ui';

/**
 * The route each remote's screen is shown at (routes.tsx renders them). Free of React, so the entry
 * module can read it before the shared libraries are negotiated.
 */
export const REMOTE_PATHS = {
  create: '/',
  vote: '/vote/:sessionId',
  results: '/results/:sessionId',
  admin: '/admin/polls',
} as const satisfies Record<RemoteName, string>;

/** The remote whose screen the page at `pathname` shows, if any. */
export function remoteForPath(pathname: string): RemoteName | undefined {
  return (Object.keys(REMOTE_PATHS) as RemoteName[]).find((remote) => matchPath(REMOTE_PATHS[remote], pathname));
}
