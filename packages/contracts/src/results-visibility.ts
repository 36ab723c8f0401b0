import { z } from 'zod';

/**
 * Who sees a poll's results when (docs/results-visibility.md), chosen once at creation: 'everyone' at any
 * time (the spec's results page, and what a creation that does not ask gets), 'after-vote' (a visitor once
 * they have voted), 'after-close' (everyone while voting is closed). The creator sees them at all times,
 * and under both rules everyone does while voting is closed.
 */
export const ResultsVisibility = z.enum(['everyone', 'after-vote', 'after-close'], {
  error: 'must be everyone, after-vote or after-close',
});
export type ResultsVisibility = z.infer<typeof ResultsVisibility>;

/** What a viewer waits for before the results are shown to them: their own vote, or the close of voting. */
export const ResultsWithheldUntil = z.enum(['voted', 'closed']);
export type ResultsWithheldUntil = z.infer<typeof ResultsWithheldUntil>;

/**
 * Added to the session view (GET /api/sessions/{id}): `resultsVisibility` when the poll has a rule other
 * than 'everyone'; `resultsWithheldUntil` when this viewer may not see the results yet; the view's
 * `voteCount`s and `totalVotes` are then 0, whatever the votes.
 */
export const ResultsVisibilityState = z.object({
  resultsVisibility: ResultsVisibility.exclude(['everyone']).optional(),
  resultsWithheldUntil: ResultsWithheldUntil.optional(),
});
export type ResultsVisibilityState = z.infer<typeof ResultsVisibilityState>;

/** 403 of the results' other reads (export, live counts, reasons) while the viewer may not see the results yet. */
export const RESULTS_WITHHELD: Record<ResultsWithheldUntil, string> = {
  voted: 'Results are shown after you vote.',
  closed: 'Results are shown when voting closes.',
};

/**
 * POST /api/sessions/{id}/results-pass (headers X-CSRF-Token and X-Creator-Token, no body): 204 with the
 * results pass, an HttpOnly cookie of this name for the poll's own paths. It lets the creator's browser read
 * what cannot carry the creator token header: the live counts' event stream, the CSV download link, the
 * reasons. It holds no creator token: an expiry and an HMAC over the poll and that expiry.
 */
export const RESULTS_PASS_COOKIE = 'lv_results_pass';
/** How long a results pass is good for; the results page asks for a new one on each visit. */
export const RESULTS_PASS_TTL_SECONDS = 12 * 60 * 60;

/**
 * 403 of the reads only the poll's creator (creator token or results pass) and the admin may make, whoever
 * may see the results (docs/results-visibility.md, "Who sees which part"): the per-channel breakdown (the
 * creator's marketing data) and the CSV export (the raw data, every reason with its date).
 */
export const CREATOR_ONLY: Record<'channels' | 'export', string> = {
  channels: "Only the poll's creator can see the votes per channel.",
  export: "Only the poll's creator can export the results.",
};
