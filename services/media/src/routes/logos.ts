import Router from '@koa/router';
import { POLL_HIDDEN } from '@logovote/contracts';
import { LOGO_NOT_FOUND, requestedLogoName, sendLogoObject } from '@logovote/media-pipeline';
import { pollOfLogoFile, readPollStatus } from '@logovote/models';
import { HttpError, type ObjectStore } from '@logovote/service-kit';

/** Object names are random, so an object never changes under its name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** File names whose poll this process remembers (a file never changes poll): a busy poll's logos skip that lookup. */
const KNOWN_FILES = 10_000;

/** pollOfLogoFile, remembering the answers found (the oldest forgotten first); a name without a poll is asked again. */
function rememberedPollOfLogoFile(): (filename: string) => Promise<string | null> {
  const known = new Map<string, string>();
  return async (filename) => {
    const remembered = known.get(filename);
    if (remembered) return remembered;
    const pollId = await pollOfLogoFile(filename);
    if (pollId) {
      known.set(filename, pollId);
      if (known.size > KNOWN_FILES) known.delete(known.keys().next().value!);
    }
    return pollId;
  };
}

/**
 * GET and HEAD /api/logos/{filename}: logo images from object storage, of polls that may be shown. The
 * file's poll is one key lookup (logo_files, remembered), then the poll's status:
 * a poll being deleted (or never finished) answers 404, one hidden pending review 403 (docs/moderation.md).
 * A 304 is answered only after the same checks.
 */
export function logosRouter(store: ObjectStore): Router {
  const router = new Router();
  const pollOf = rememberedPollOfLogoFile();

  // @koa/router answers HEAD with the GET route; HEAD never opens the object.
  router.get('/api/logos/:filename', async (ctx) => {
    const name = requestedLogoName(ctx.params.filename);
    const pollId = await pollOf(name);
    if (!pollId) throw new HttpError(404, LOGO_NOT_FOUND);
    const status = await readPollStatus(pollId);
    if (status.state !== 'active') throw new HttpError(404, LOGO_NOT_FOUND);
    if (status.hidden) throw new HttpError(403, POLL_HIDDEN);
    await sendLogoObject(ctx, store, name, IMMUTABLE);
  });

  return router;
}
