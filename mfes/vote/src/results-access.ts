import type { SessionView } from '@logovote/contracts';
import { resultsVisibilityOf, storedCreatorToken, votingStateOf } from '@logovote/web-client';

/**
 * The results page of `session`, when a visitor who has voted in it may see its results now
 * (docs/results-visibility.md): under the 'everyone' and 'after-vote' rules, once voting has closed, and for the
 * poll's creator; undefined under 'after-close' while voting is open.
 */
export function resultsPathAfterVote(session: SessionView): string | undefined {
  const shown =
    resultsVisibilityOf(session).resultsVisibility !== 'after-close' ||
    votingStateOf(session).closed ||
    storedCreatorToken(session.sessionId) !== undefined;
  return shown ? `/results/${encodeURIComponent(session.sessionId)}` : undefined;
}
