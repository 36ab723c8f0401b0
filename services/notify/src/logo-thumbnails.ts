import { buffer } from 'node:stream/consumers';
import { fittedLogo } from '@logovote/media-pipeline/link-preview';
import { logoName, storedLogoBackdrop, type StoredLogo } from '@logovote/models';
import type { Logger, ObjectStore } from '@logovote/service-kit';
import { THUMBNAIL_SIDE, type EmailedLogo } from './links-email';

/**
 * Each logo's name, its backdrop and a PNG of it fitted into a square (at twice the e-mail's size, for sharp screens), drawn
 * as the link preview draws logos (SVGs in the renderer's child process, under its time budget). A logo that
 * cannot be read or drawn goes by its name alone: the links matter more than the pictures.
 */
export function emailedLogos(
  store: ObjectStore,
  logos: readonly Pick<StoredLogo, 'filename' | 'contentType' | 'name' | 'originalName' | 'appearance'>[],
  logger: Logger,
): Promise<EmailedLogo[]> {
  return Promise.all(
    logos.map(async (logo) => {
      const name = logoName(logo);
      const backdrop = storedLogoBackdrop(logo);
      try {
        const data = await buffer(await store.client.getObject(store.bucket, logo.filename));
        return { name, backdrop, thumbnail: await fittedLogo({ data, isSvg: logo.contentType === 'image/svg+xml' }, 2 * THUMBNAIL_SIDE) };
      } catch (error: unknown) {
        logger.warn({ filename: logo.filename, err: error }, 'a logo could not be drawn for the links e-mail');
        return { name, backdrop };
      }
    }),
  );
}
