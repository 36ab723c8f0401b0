import { logoAppearance, type LogoAppearance } from '@logovote/contracts';
import type sharp from 'sharp';

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
  const preview = Buffer.alloc(info.width * info.height * 3);
  for (let source = 0, target = 0; source < data.length; source += 4, target += 3) {
    const alpha = data[source + 3]! / 255;
    for (let c = 0; c < 3; c++) preview[target + c] = Math.round(data[source + c]! * alpha + 255 * (1 - alpha));
  }
  return { preview: { data: preview, width: info.width, height: info.height }, appearance: logoAppearance(data) };
}
