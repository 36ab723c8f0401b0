import type { RemoteName } from '@logovote/contracts';

/**
 * The Module Federation containers the shell can load, and the screen each one exposes.
 * Where they are deployed is NOT compiled in: it comes from /runtime-config.json at run time.
 */
export const REMOTES = {
  create: { container: 'logovote_create', expose: 'LandingPage' },
  vote: { container: 'logovote_vote', expose: 'VotePage' },
  results: { container: 'logovote_results', expose: 'ResultsPage' },
  admin: { container: 'logovote_admin', expose: 'AdminPollsPage' },
} as const satisfies Record<RemoteName, { container: string; expose: string }>;

/** Props each remote's exposed screen receives from the shell (route params). */
export type RemoteScreenProps = {
  create: Record<string, never>;
  vote: { sessionId: string };
  results: { sessionId: string };
  admin: Record<string, never>;
};
