import Router from '@koa/router';
import { LinkPreviewQuery } from '@logovote/contracts';
import type { SvgSettings } from '@logovote/media-pipeline';
import { parseInput, type ObjectStore } from '@logovote/service-kit';
import { linkPreviewTags, pollPreviewImage } from '../polls/link-preview';
import { shownPollOr4xx } from './requested-poll';

export interface LinkPreviewRouteOptions {
  store: ObjectStore;
  publicOrigin: string;
  /** The SVG cost limits logos are drawn within. */
  svg: SvgSettings;
}

/**
 * A poll's stored preview may be reused for a few minutes: its logos and question never change, and a
 * deleted poll's image is gone from here at once (every answer checks the poll first).
 */
const PREVIEW_CACHE_CONTROL = 'public, max-age=300';

/** The poll a preview is asked for, unless it is hidden pending review: then none of its logos or question is shown (docs/moderation.md). */
const previewedPoll = (sessionId: string | undefined) => shownPollOr4xx(sessionId, ['logos', 'feedbackPrompt', 'resultsVisibility']);

/** Link previews (docs/sharing.md): GET /api/sessions/{id}/preview.png and GET /api/sessions/{id}/link-preview. */
export function linkPreviewRouter({ store, publicOrigin, svg }: LinkPreviewRouteOptions): Router {
  const router = new Router();

  // @koa/router answers HEAD with the GET route; HEAD does not open a stored image.
  router.get('/api/sessions/:sessionId/preview.png', async (ctx) => {
    const poll = await previewedPoll(ctx.params.sessionId);
    const image = await pollPreviewImage(store, poll, ctx.method !== 'HEAD', svg);
    ctx.status = 200;
    ctx.etag = image.etag;
    if (image.lastModified) ctx.lastModified = image.lastModified;
    ctx.set('Cache-Control', PREVIEW_CACHE_CONTROL);
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'image/png';
    ctx.length = image.size;
    if (ctx.method === 'HEAD') return;
    ctx.body = image.body;
  });

  // The gateway writes this into the HTML of /vote/{id} and /results/{id} (shells/web/index.html).
  router.get('/api/sessions/:sessionId/link-preview', async (ctx) => {
    const { page } = parseInput(LinkPreviewQuery, ctx.query);
    const poll = await previewedPoll(ctx.params.sessionId);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = linkPreviewTags(publicOrigin, page, poll);
  });

  return router;
}
