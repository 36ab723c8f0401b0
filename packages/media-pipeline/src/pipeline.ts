import { open, readFile } from 'node:fs/promises';
import { MAX_LOGO_PIXELS, type LogoAppearance } from '@logovote/contracts';
import sharp from 'sharp';
import { SvgTooComplex, UploadRejected } from './errors';
import { IMAGE_FORMATS, SNIFF_BYTES, sniffImageFormat, type FormatInfo, type ImageFormat } from './formats';
import { logoPixels } from './logo-pixels';
import type { ModerationImage, ModerationProvider, ModerationVerdict } from './moderation/provider';
import type { UploadedFile } from './multipart';
import { DEFAULT_SVG_SETTINGS, type SvgSettings } from './svg-costs';
import { checkSvg } from './svg-policy';
import { SvgRenderTimeout, svgRenderer, type SvgRenderer } from './svg-render';

// Each upload is read once; libvips' cache would only hold deleted temporary files open.
sharp.cache(false);

/** Moderation sees the image scaled into this square: enough for any classifier, cheap to pass around. */
const PREVIEW_SIDE = 512;
const ACCEPTED = 'a PNG, JPEG, SVG or WebP image';

export interface InspectedImage extends FormatInfo {
  format: ImageFormat;
  width: number;
  height: number;
  size: number;
  moderation: ModerationVerdict;
  /** What its pixels look like, for the backdrop it is shown on (docs/logo-backdrops.md). */
  appearance: LogoAppearance;
}

export interface UploadPipelineOptions {
  moderation: ModerationProvider;
  maxPixels?: number;
  /** The SVG cost limits and time budget (svgEnv); the defaults when not given. */
  svg?: SvgSettings;
}

/** The checks every uploaded image passes before it is stored or judged (poll creation and the moderation test). */
export interface UploadPipeline {
  readonly moderation: ModerationProvider;
  /** Resolves with what the file really is, or rejects with UploadRejected (or ModerationUnavailable). */
  inspect(file: UploadedFile): Promise<InspectedImage>;
}

async function readHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** SVG text must be valid UTF-8, cheap enough to draw and pass the SVG policy; returns the bytes to draw. */
async function checkedSvg(file: UploadedFile, settings: SvgSettings): Promise<Buffer> {
  const bytes = await readFile(file.path);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UploadRejected(415, `"${file.originalName}" is not ${ACCEPTED}`, 'type', { detected: 'text that is not UTF-8' });
  }
  const verdict = checkSvg(text, settings);
  // First: markup too large to parse is refused as such, whether or not it would have been an SVG document.
  if (verdict.tooComplex.length > 0) throw new SvgTooComplex(`"${file.originalName}"`, verdict.tooComplex);
  if (!verdict.isSvg)
    throw new UploadRejected(415, `"${file.originalName}" is not ${ACCEPTED}`, 'type', { detected: 'markup that is not an SVG document' });
  if (verdict.problems.length > 0) {
    throw new UploadRejected(
      422,
      `"${file.originalName}" was refused: SVG logos must not contain scripts, event handlers, foreignObject or external references (found ${verdict.problems.join('; ')})`,
      'svg',
      { problems: verdict.problems },
    );
  }
  return bytes;
}

/**
 * What the checks after decoding need: the decoded format and size, and within the pixel limit the preview and
 * the appearance.
 */
interface Decoded {
  format: string | undefined;
  width: number | undefined;
  height: number | undefined;
  preview?: ModerationImage;
  appearance?: LogoAppearance;
}

async function decodeRaster(path: string, maxPixels: number): Promise<Decoded> {
  // Reading the header costs nothing whatever the size, so it is read unlimited to name the dimensions.
  const { format, width, height } = await sharp(path, { limitInputPixels: false }).metadata();
  if (!width || !height || width * height > maxPixels) return { format, width, height };
  // Decoding every pixel (not just the header) proves the file is intact; the small copy feeds moderation and
  // the appearance. limitInputPixels makes libvips itself refuse an oversized image too, whatever the header said.
  const { preview, appearance } = await logoPixels(sharp(path, { limitInputPixels: maxPixels, failOn: 'warning' }), PREVIEW_SIDE);
  return { format, width, height, preview, appearance };
}

/** An SVG is drawn in the renderer's child process, under its time budget and at the preview's size at most. */
async function decodeSvg(renderer: SvgRenderer, svg: Buffer, maxPixels: number): Promise<Decoded> {
  const { preview, appearance, ...header } = await renderer.inspect({ svg, maxPixels, side: PREVIEW_SIDE });
  if (!preview || !appearance) return header;
  return {
    ...header,
    appearance,
    preview: {
      data: Buffer.from(preview.data.buffer, preview.data.byteOffset, preview.data.byteLength),
      width: preview.width,
      height: preview.height,
    },
  };
}

export function createUploadPipeline(options: UploadPipelineOptions): UploadPipeline {
  const maxPixels = options.maxPixels ?? MAX_LOGO_PIXELS;
  const svgSettings = options.svg ?? DEFAULT_SVG_SETTINGS;
  const renderer = svgRenderer(svgSettings.SVG_RENDER_TIMEOUT_MS);

  async function inspect(file: UploadedFile): Promise<InspectedImage> {
    const format = sniffImageFormat(await readHead(file.path));
    if (!format) {
      const details = { detected: null, declaredType: file.declaredType };
      throw new UploadRejected(415, `"${file.originalName}" is not ${ACCEPTED}`, 'type', details);
    }
    const unreadable = (error: unknown) =>
      new UploadRejected(422, `"${file.originalName}" could not be read as a ${format.toUpperCase()} image`, 'decode', {
        error: error instanceof Error ? error.message : String(error),
      });
    const decoded = await (
      format === 'svg' ? decodeSvg(renderer, await checkedSvg(file, svgSettings), maxPixels) : decodeRaster(file.path, maxPixels)
    ).catch((error: unknown) => {
      if (error instanceof SvgRenderTimeout) throw new SvgTooComplex(`"${file.originalName}"`, [error.message]);
      throw error instanceof UploadRejected ? error : unreadable(error);
    });
    // The bytes must decode as the format they start like (a PNG signature on anything else is refused).
    if (decoded.format !== format) throw unreadable(new Error(`decoded as ${String(decoded.format)}`));
    const { width, height, preview, appearance } = decoded;
    if (!width || !height) throw unreadable(new Error('no dimensions'));
    if (width * height > maxPixels || !preview || !appearance) {
      throw new UploadRejected(
        422,
        `"${file.originalName}" is ${width}×${height} pixels; logos may have at most ${maxPixels / 1_000_000} million pixels`,
        'dimensions',
        { width, height, maxPixels },
      );
    }

    const moderation = await options.moderation.moderate(preview);
    if (!moderation.isValid) {
      throw new UploadRejected(
        422,
        `"${file.originalName}" was rejected by content moderation: ${moderation.reason}`,
        'moderation',
        moderation.rawResponse,
      );
    }
    return { format, ...IMAGE_FORMATS[format], width, height, size: file.size, moderation, appearance };
  }

  return { moderation: options.moderation, inspect };
}
