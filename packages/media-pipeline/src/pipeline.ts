import { open, readFile } from 'node:fs/promises';
import { MAX_LOGO_PIXELS } from '@logovote/contracts';
import sharp from 'sharp';
import { UploadRejected } from './errors';
import { IMAGE_FORMATS, SNIFF_BYTES, sniffImageFormat, type FormatInfo, type ImageFormat } from './formats';
import type { ModerationProvider, ModerationVerdict } from './moderation/provider';
import type { UploadedFile } from './multipart';
import { checkSvg } from './svg-policy';

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
}

export interface UploadPipelineOptions {
  moderation: ModerationProvider;
  maxPixels?: number;
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

/** SVG text must be valid UTF-8 and pass the SVG policy; returns the bytes sharp renders. */
async function checkedSvg(file: UploadedFile): Promise<Buffer> {
  const bytes = await readFile(file.path);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UploadRejected(415, `"${file.originalName}" is not ${ACCEPTED}`, 'type', { detected: 'text that is not UTF-8' });
  }
  const verdict = checkSvg(text);
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

export function createUploadPipeline(options: UploadPipelineOptions): UploadPipeline {
  const maxPixels = options.maxPixels ?? MAX_LOGO_PIXELS;

  async function inspect(file: UploadedFile): Promise<InspectedImage> {
    const format = sniffImageFormat(await readHead(file.path));
    if (!format) {
      const details = { detected: null, declaredType: file.declaredType };
      throw new UploadRejected(415, `"${file.originalName}" is not ${ACCEPTED}`, 'type', details);
    }
    const input = format === 'svg' ? await checkedSvg(file) : file.path;
    const unreadable = (error: unknown) =>
      new UploadRejected(422, `"${file.originalName}" could not be read as a ${format.toUpperCase()} image`, 'decode', {
        error: error instanceof Error ? error.message : String(error),
      });
    // Reading the header costs nothing whatever the size, so it is read unlimited to name the dimensions.
    const metadata = await sharp(input, { limitInputPixels: false })
      .metadata()
      .catch((error: unknown) => Promise.reject(unreadable(error)));
    // The bytes must decode as the format they start like (a PNG signature on anything else is refused).
    if (metadata.format !== format) throw unreadable(new Error(`decoded as ${String(metadata.format)}`));
    const { width, height } = metadata;
    if (!width || !height) throw unreadable(new Error('no dimensions'));
    if (width * height > maxPixels) {
      throw new UploadRejected(
        422,
        `"${file.originalName}" is ${width}×${height} pixels; logos may have at most ${maxPixels / 1_000_000} million pixels`,
        'dimensions',
        { width, height, maxPixels },
      );
    }

    // Decoding every pixel (not just the header) proves the file is intact; the small copy feeds moderation.
    // limitInputPixels makes libvips itself refuse an oversized image too, whatever the header said.
    const preview = await sharp(input, { limitInputPixels: maxPixels, failOn: 'warning' })
      .flatten({ background: '#ffffff' })
      .resize(PREVIEW_SIDE, PREVIEW_SIDE, { fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .catch((error: unknown) => Promise.reject(unreadable(error)));

    const moderation = await options.moderation.moderate({ data: preview.data, width: preview.info.width, height: preview.info.height });
    if (!moderation.isValid) {
      throw new UploadRejected(
        422,
        `"${file.originalName}" was rejected by content moderation: ${moderation.reason}`,
        'moderation',
        moderation.rawResponse,
      );
    }
    return { format, ...IMAGE_FORMATS[format], width, height, size: file.size, moderation };
  }

  return { moderation: options.moderation, inspect };
}
