import Router from '@koa/router';
import { LogoFilename } from '@logovote/contracts';
import { contentTypeOfFilename } from '@logovote/media-pipeline';
import { HttpError, type ObjectStore } from '@logovote/service-kit';

export const LOGO_NOT_FOUND = 'Logo not found';

/** Object names are random, so an object never changes under its name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Applied to every image, and what makes a crafted SVG opened directly harmless: no scripts, no
 * plugins, no loads from anywhere, in a sandbox with a unique origin. Inline styles and embedded
 * rasters still render.
 */
const IMAGE_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

const isMissing = (error: unknown) => ['NotFound', 'NoSuchKey'].includes(String((error as { code?: unknown }).code));

/** GET and HEAD /api/logos/{filename}: logo images from object storage. */
export function logosRouter(store: ObjectStore): Router {
  const router = new Router();

  // @koa/router answers HEAD with the GET route; HEAD never opens the object.
  router.get('/api/logos/:filename', async (ctx) => {
    // Only names this service could have given out reach the store: no traversal, no other objects.
    const name = LogoFilename.safeParse(ctx.params.filename).data;
    const contentType = name && contentTypeOfFilename(name);
    if (!name || !contentType) throw new HttpError(404, LOGO_NOT_FOUND);
    const stat = await store.client.statObject(store.bucket, name).catch((error: unknown) => {
      throw isMissing(error) ? new HttpError(404, LOGO_NOT_FOUND) : error;
    });

    ctx.status = 200;
    ctx.etag = stat.etag;
    ctx.lastModified = stat.lastModified;
    ctx.set('Cache-Control', IMMUTABLE);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', IMAGE_POLICY);
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = contentType;
    ctx.length = stat.size;
    if (ctx.method === 'HEAD') return;
    ctx.body = await store.client.getObject(store.bucket, name).catch((error: unknown) => {
      throw isMissing(error) ? new HttpError(404, LOGO_NOT_FOUND) : error;
    });
  });

  return router;
}
