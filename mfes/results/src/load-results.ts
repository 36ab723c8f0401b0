import type { SessionView } from '@logovote/contracts';
import { api, knownFingerprint, resultsVisibilityOf, takeCreatorToken } from '@logovote/web-client';

/**
 * The results page's read of a poll (docs/results-visibility.md): with the creator token this browser holds
 * and the fingerprint it votes with, so the server shows results withheld from others to whoever may see
 * them. The creator of a poll with a rule also gets the results pass, the cookie that shows this browser
 * the live counts, the CSV and the reasons; a refused pass leaves those refused, not the page.
 */
export async function loadResults(sessionId: string): Promise<SessionView> {
  const creatorToken = takeCreatorToken(sessionId);
  const session = await api.getSession(sessionId, { creatorToken, fingerprint: knownFingerprint() });
  const { resultsVisibility, resultsWithheldUntil } = resultsVisibilityOf(session);
  if (creatorToken && resultsVisibility && !resultsWithheldUntil)
    await api.requestResultsPass(sessionId, creatorToken).catch(() => undefined);
  return session;
}

/** The poll the page's HTML holds, if it may stand for the first read: never one whose results are withheld (another read may show them). */
export function shownPagePoll(poll: SessionView | undefined): SessionView | undefined {
  return poll && !resultsVisibilityOf(poll).resultsWithheldUntil ? poll : undefined;
}
