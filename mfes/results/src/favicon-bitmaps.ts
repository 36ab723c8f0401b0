import { useEffect, useState } from 'react';

/** The sizes browsers draw a favicon at, in CSS pixels. */
export const FAVICON_SIZES = [16, 32] as const;
export type FaviconSize = (typeof FAVICON_SIZES)[number];

/**
 * The logo as a favicon of one size: a bitmap of size² pixels (what a standard screen shows) and one of
 * (2·size)² (a screen with 2 device pixels per CSS pixel). Both are drawn once, as favicon generators do, so
 * a sharp screen can also show the coarse one pixel for pixel.
 */
export type FaviconBitmap = { standard: string; sharp: string };
export type FaviconBitmaps = Record<FaviconSize, FaviconBitmap>;

async function loadImage(src: string): Promise<HTMLImageElement> {
  const image = new Image();
  image.src = src;
  await image.decode();
  return image;
}

/** The image scaled to fit a square of `pixels`, centred, as a PNG data URL. */
function drawSquare(image: HTMLImageElement, pixels: number): string {
  const canvas = document.createElement('canvas');
  canvas.width = pixels;
  canvas.height = pixels;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  context.imageSmoothingQuality = 'high';
  // An SVG without a size of its own has no natural size: it is drawn square.
  const width = image.naturalWidth || pixels;
  const height = image.naturalHeight || pixels;
  const scale = Math.min(pixels / width, pixels / height);
  context.drawImage(image, (pixels - width * scale) / 2, (pixels - height * scale) / 2, width * scale, height * scale);
  return canvas.toDataURL('image/png');
}

export type FaviconBitmapsState = { status: 'drawing' } | { status: 'drawn' | 'source'; bitmaps: FaviconBitmaps };

/**
 * The favicon bitmaps of the logo at `src`. Where they cannot be drawn (the image does not decode, no canvas),
 * the logo itself stands in for them, scaled by the browser ('source').
 */
export function useFaviconBitmaps(src: string): FaviconBitmapsState {
  const [state, setState] = useState<FaviconBitmapsState>({ status: 'drawing' });
  useEffect(() => {
    let current = true;
    setState({ status: 'drawing' });
    loadImage(src)
      .then((image): FaviconBitmapsState => {
        const bitmap = (size: FaviconSize) => ({ standard: drawSquare(image, size), sharp: drawSquare(image, 2 * size) });
        return { status: 'drawn', bitmaps: { 16: bitmap(16), 32: bitmap(32) } };
      })
      .catch((): FaviconBitmapsState => ({
        status: 'source',
        bitmaps: { 16: { standard: src, sharp: src }, 32: { standard: src, sharp: src } },
      }))
      .then((next) => {
        if (current) setState(next);
      });
    return () => {
      current = false;
    };
  }, [src]);
  return state;
}
