import Router from '@koa/router';
import { CREATOR_TOKEN_HEADER, CREATOR_TOKEN_REJECTED } from '@logovote/contracts';
import { findActivePoll, isCreatorTokenOf } from '@logovote/models';
import { HttpError, pollOr404, requireCsrf, resultsPasses } from '@logovote/service-kit';

/**
 * POST /api/sessions/{id}/results-pass (docs/results-visibility.md): the holder of the creator token gets
 * the results pass, a cookie that shows the results to the reads a browser makes without the token's
 * header (the live counts' stream, the CSV link, the reasons). A write on a session: it needs the
 * anti-forgery token too.
 */
export function resultsPassRouter(csrfSecret: string): Router {
  const router = new Router();
  const passes = resultsPasses(csrfSecret);

  router.post('/api/sessions/:sessionId/results-pass', requireCsrf(csrfSecret), async (ctx) => {
    const pollId = pollOr404(await findActivePoll(ctx.params.sessionId, ['_id']))._id;
    if (!(await isCreatorTokenOf(pollId, ctx.get(CREATOR_TOKEN_HEADER) || undefined))) throw new HttpError(403, CREATOR_TOKEN_REJECTED);
    passes.issue(ctx, pollId);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 204;
  });

  return router;
}
