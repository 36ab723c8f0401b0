import Router from '@koa/router';
import { POLL_HIDDEN } from '@logovote/contracts';
import { LOGO_NOT_FOUND, requestedLogoName, sendLogoObject } from '@logovote/media-pipeline';
import { PollModel, activePoll, pollOfLogoFile, readModerationState } from '@logovote/models';
import { HttpError, type ObjectStore } from '@logovote/service-kit';

/** Object names are random, so an object never changes under its name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET and HEAD /api/logos/{filename}: logo images from object storage, of polls that may be shown. The
 * file's poll is one key lookup (logo_files), then the poll's state and its moderation entries together:
 * a poll being deleted (or never finished) answers 404, one hidden pending review 403 (docs/moderation.md).
 * A 304 is answered only after the same checks.
 */
export function logosRouter(store: ObjectStore): Router {
  const router = new Router();

  // @koa/router answers HEAD with the GET route; HEAD never opens the object.
  router.get('/api/logos/:filename', async (ctx) => {
    const name = requestedLogoName(ctx.params.filename);
    const pollId = await pollOfLogoFile(name);
    if (!pollId) throw new HttpError(404, LOGO_NOT_FOUND);
    const [active, moderation] = await Promise.all([PollModel.exists(activePoll(pollId)), readModerationState(pollId)]);
    if (active === null) throw new HttpError(404, LOGO_NOT_FOUND);
    if (moderation.hidden) throw new HttpError(403, POLL_HIDDEN);
    await sendLogoObject(ctx, store, name, IMMUTABLE);
  });

  return router;
}
