import type { Context } from 'koa';
import { LogoFilename } from '@logovote/contracts';
import { HttpError, type ObjectStore } from '@logovote/service-kit';
import { contentTypeOfFilename } from './formats';

export const LOGO_NOT_FOUND = 'Logo not found';

/**
 * Applied to every image, and what makes a crafted SVG opened directly harmless: no scripts, no
 * plugins, no loads from anywhere, in a sandbox with a unique origin. Inline styles and embedded
 * rasters still render.
 */
const IMAGE_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

const isMissing = (error: unknown) => ['NotFound', 'NoSuchKey'].includes(String((error as { code?: unknown }).code));

/**
 * A logo file name as requested, if it is one the sessions service could have given out: only such
 * names reach the store (no traversal, no other objects); anything else is the 404.
 */
export function requestedLogoName(filename: string | undefined): string {
  const name = LogoFilename.safeParse(filename).data;
  if (!name || !contentTypeOfFilename(name)) throw new HttpError(404, LOGO_NOT_FOUND);
  return name;
}

/**
 * Answers GET or HEAD with a stored logo image (a name from requestedLogoName): ETag and Last-Modified
 * (a 304 reads no object), `cacheControl`, nosniff and the sandboxing policy; HEAD never opens the object.
 */
export async function sendLogoObject(ctx: Context, store: ObjectStore, name: string, cacheControl: string): Promise<void> {
  const stat = await store.client.statObject(store.bucket, name).catch((error: unknown) => {
    throw isMissing(error) ? new HttpError(404, LOGO_NOT_FOUND) : error;
  });
  ctx.status = 200;
  ctx.etag = stat.etag;
  ctx.lastModified = stat.lastModified;
  ctx.set('Cache-Control', cacheControl);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', IMAGE_POLICY);
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.type = contentTypeOfFilename(name) ?? 'application/octet-stream';
  ctx.length = stat.size;
  if (ctx.method === 'HEAD') return;
  ctx.body = await store.client.getObject(store.bucket, name).catch((error: unknown) => {
    throw isMissing(error) ? new HttpError(404, LOGO_NOT_FOUND) : error;
  });
}
