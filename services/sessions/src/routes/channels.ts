import Router from '@koa/router';
import { CREATOR_ONLY, RESULTS_WITHHELD } from '@logovote/contracts';
import { RESULTS_RULE_FIELDS, isPollCreator, resultsWithheldFrom } from '@logovote/models';
import { HttpError, resultsViewerClues } from '@logovote/service-kit';
import { attributeResults } from '../polls/attribute-results';
import { channelResults } from '../polls/channel-counts';
import { shownPollOr4xx } from './requested-poll';

/**
 * GET /api/sessions/{sessionId}/channels (docs/channels.md): the votes per channel, for the poll's creator
 * only (the creator token or the results pass; docs/results-visibility.md). The admin reads them in the
 * poll's details. GET /api/sessions/{sessionId}/attributes: the answers to the poll's attribute questions.
 */
export function channelsRouter(secrets: { csrfSecret: string; ipHashSalt: string }): Router {
  const router = new Router();
  const viewerOf = resultsViewerClues(secrets);

  router.get('/api/sessions/:sessionId/channels', async (ctx) => {
    const poll = await shownPollOr4xx(ctx.params.sessionId, ['logos', 'channels', ...RESULTS_RULE_FIELDS]);
    const viewer = viewerOf(ctx, poll._id);
    // Withheld from this viewer like the counts of the session view (docs/results-visibility.md).
    const withheld = await resultsWithheldFrom(poll, viewer);
    if (withheld) throw new HttpError(403, RESULTS_WITHHELD[withheld]);
    if (!isPollCreator(poll, viewer)) throw new HttpError(403, CREATOR_ONLY.channels);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await channelResults(poll);
  });

  // Answers show preferences as counts do: withheld with them; each channel's only to the creator (docs/attributes.md).
  router.get('/api/sessions/:sessionId/attributes', async (ctx) => {
    const poll = await shownPollOr4xx(ctx.params.sessionId, ['logos', 'channels', 'attributes', ...RESULTS_RULE_FIELDS]);
    const viewer = viewerOf(ctx, poll._id);
    const withheld = await resultsWithheldFrom(poll, viewer);
    if (withheld) throw new HttpError(403, RESULTS_WITHHELD[withheld]);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await attributeResults(poll, isPollCreator(poll, viewer));
  });

  return router;
}
