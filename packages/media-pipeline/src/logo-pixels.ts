import { logoAppearance, type LogoAppearance } from '@logovote/contracts';
import sharp from 'sharp';

/** The preview moderation judges (raw RGB on white) and the logo's appearance, from one decoding. */
export interface LogoPixels {
  preview: { data: Buffer; width: number; height: number };
  appearance: LogoAppearance;
}

/**
 * Decodes an image (sharp's pipeline, already opened on the file or the SVG) into a square of `side` pixels at
 * most, measures its appearance on the pixels with their transparency (docs/logo-backdrops.md), and flattens
 * them on white for moderation.
 */
export async function logoPixels(image: sharp.Sharp, side: number): Promise<LogoPixels> {
  const { data, info } = await image
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const flattened = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .raw()
    .toBuffer();
  return { preview: { data: flattened, width: info.width, height: info.height }, appearance: logoAppearance(data, info.width) };
}
