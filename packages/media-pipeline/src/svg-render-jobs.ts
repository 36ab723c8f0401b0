import { MAX_LOGO_PIXELS, type LogoAppearance } from '@logovote/contracts';
import sharp from 'sharp';
import { logoPixels } from './logo-pixels';

/** What the upload pipeline needs of an SVG: its size, and (within the pixel limit) a preview to moderate and its appearance. */
export interface InspectJob {
  kind: 'inspect';
  svg: Uint8Array;
  maxPixels: number;
  /** The preview's longer side at most. */
  side: number;
}

/** A logo drawn to fit a square (the link preview), as PNG. */
export interface FitJob {
  kind: 'fit';
  svg: Uint8Array;
  side: number;
}

export type SvgJob = InspectJob | FitJob;

export interface InspectResult {
  format: string | undefined;
  width: number | undefined;
  height: number | undefined;
  /** Raw RGB, absent when the SVG declares more than maxPixels. */
  preview?: { data: Uint8Array; width: number; height: number };
  /** Absent with the preview. */
  appearance?: LogoAppearance;
}

export interface SvgJobRequest {
  id: number;
  job: SvgJob;
}

export type SvgJobResult = InspectResult | Uint8Array;

/**
 * The density that draws an SVG of this size with its longer side at most `side` pixels: a vector is drawn at
 * the size it is used at, so no drawing is larger than what it feeds (the pixel budget), whatever size the
 * SVG declares. Never enlarged past its own size (72 dpi) for moderation, as raster images are not.
 */
function densityFor(width: number, height: number, side: number, enlarge: boolean): number {
  const scale = side / Math.max(width, height);
  return Math.min(1200, Math.max(1, 72 * (enlarge ? scale : Math.min(1, scale))));
}

async function inspect(job: InspectJob): Promise<InspectResult> {
  const svg = Buffer.from(job.svg);
  // Reading the header costs nothing whatever the size, so it is read unlimited to name the dimensions.
  const { format, width, height } = await sharp(svg, { limitInputPixels: false }).metadata();
  if (!width || !height || width * height > job.maxPixels) return { format, width, height };
  // Drawing every element (not just the header) proves the file is intact; the small copy feeds moderation and the appearance.
  const image = sharp(svg, { limitInputPixels: job.maxPixels, failOn: 'warning', density: densityFor(width, height, job.side, false) });
  const { preview, appearance } = await logoPixels(image, job.side);
  return { format, width, height, preview, appearance };
}

async function fit(job: FitJob): Promise<Uint8Array> {
  const svg = Buffer.from(job.svg);
  const { width, height } = await sharp(svg).metadata();
  // An SVG is drawn at the size it is fitted to, not scaled up from its own (often small) size.
  const density = width && height ? densityFor(width, height, job.side, true) : undefined;
  return sharp(svg, { limitInputPixels: MAX_LOGO_PIXELS, ...(density ? { density } : {}) })
    .resize(job.side, job.side, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

export function runSvgJob(job: SvgJob): Promise<SvgJobResult> {
  return job.kind === 'inspect' ? inspect(job) : fit(job);
}
