import { copyLink } from '@logovote/ui';

/** Spec section 2: copies {origin}/vote/{sessionId} and confirms with 'Link copied!'. */
export const copyVotingLink = (sessionId: string): Promise<void> =>
  copyLink('Voting link', `${window.location.origin}/vote/${encodeURIComponent(sessionId)}`);
