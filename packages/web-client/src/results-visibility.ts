import type { ResultsVisibilityState, SessionView } from '@logovote/contracts';

/**
 * Who sees a poll's results when (docs/results-visibility.md), as the session view says: the poll's rule
 * (absent: everyone at any time), and until when the results are withheld from this viewer (absent: shown;
 * the view's counts are then 0).
 */
export function resultsVisibilityOf(session: SessionView): ResultsVisibilityState {
  const { resultsVisibility, resultsWithheldUntil } = session as SessionView & ResultsVisibilityState;
  return { ...(resultsVisibility ? { resultsVisibility } : {}), ...(resultsWithheldUntil ? { resultsWithheldUntil } : {}) };
}

/** What tells the server this browser may see results: the poll's creator token, or the fingerprint it votes with (its voter pass goes anyway). */
export type ResultsViewer = { creatorToken?: string | undefined; fingerprint?: string | undefined };
