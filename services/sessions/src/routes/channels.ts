import Router from '@koa/router';
import { RESULTS_WITHHELD } from '@logovote/contracts';
import { RESULTS_RULE_FIELDS, resultsWithheldFrom } from '@logovote/models';
import { HttpError, resultsViewerClues } from '@logovote/service-kit';
import { channelResults } from '../polls/channel-counts';
import { shownPollOr4xx } from './requested-poll';

/** GET /api/sessions/{sessionId}/channels (docs/channels.md): the votes per channel, withheld like every other count. */
export function channelsRouter(secrets: { csrfSecret: string; ipHashSalt: string }): Router {
  const router = new Router();
  const viewerOf = resultsViewerClues(secrets);

  router.get('/api/sessions/:sessionId/channels', async (ctx) => {
    const poll = await shownPollOr4xx(ctx.params.sessionId, ['logos', 'channels', ...RESULTS_RULE_FIELDS]);
    // Withheld from this viewer like the counts of the session view (docs/results-visibility.md).
    const withheld = await resultsWithheldFrom(poll, viewerOf(ctx, poll._id));
    if (withheld) throw new HttpError(403, RESULTS_WITHHELD[withheld]);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await channelResults(poll);
  });

  return router;
}
