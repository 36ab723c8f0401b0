import Router from '@koa/router';
import { CREATOR_ONLY, RESULTS_WITHHELD } from '@logovote/contracts';
import { RESULTS_RULE_FIELDS, isPollCreator, resultsWithheldFrom } from '@logovote/models';
import { HttpError, resultsViewerClues, type Logger } from '@logovote/service-kit';
import { sendResultsCsv } from '../polls/results-csv';
import { shownPollOr4xx } from './requested-poll';

/**
 * GET /api/sessions/{sessionId}/results.csv (docs/export.md): the results as CSV, for the poll's creator
 * only (the creator token or the results pass; docs/results-visibility.md). The admin's copy is under
 * /api/admin/polls/{pollId}/results.csv.
 */
export function exportRouter(logger: Logger, secrets: { csrfSecret: string; ipHashSalt: string }): Router {
  const router = new Router();
  const viewerOf = resultsViewerClues(secrets);

  router.get('/api/sessions/:sessionId/results.csv', async (ctx) => {
    // A hidden poll's export is refused like its other public reads (403, docs/moderation.md).
    const poll = await shownPollOr4xx(ctx.params.sessionId, ['logos', 'channels', 'attributes', ...RESULTS_RULE_FIELDS]);
    const viewer = viewerOf(ctx, poll._id);
    // Counts and reasons withheld from this viewer are refused like the rest (docs/results-visibility.md).
    const withheld = await resultsWithheldFrom(poll, viewer);
    if (withheld) throw new HttpError(403, RESULTS_WITHHELD[withheld]);
    if (!isPollCreator(poll, viewer)) throw new HttpError(403, CREATOR_ONLY.export);
    await sendResultsCsv(ctx, logger, poll);
  });

  return router;
}
