/** The image types a logo may be, decided from the file's bytes (never its name or declared type). */
export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'svg';

export interface FormatInfo {
  /** The extension stored object names get (LogoFilename in the contracts). */
  extension: 'png' | 'jpg' | 'webp' | 'svg';
  contentType: string;
}

export const IMAGE_FORMATS: Record<ImageFormat, FormatInfo> = {
  png: { extension: 'png', contentType: 'image/png' },
  jpeg: { extension: 'jpg', contentType: 'image/jpeg' },
  webp: { extension: 'webp', contentType: 'image/webp' },
  svg: { extension: 'svg', contentType: 'image/svg+xml' },
};

/** How many leading bytes sniffing needs. */
export const SNIFF_BYTES = 64;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

function isXmlText(head: Buffer): boolean {
  const text = head.subarray(head.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0);
  if (text.includes(0)) return false;
  // Markup must come first; whether it really is an SVG document the SVG policy's parser decides.
  return /^\s*</.test(text.toString('latin1'));
}

/** The format the bytes say, or undefined for anything that is not a PNG, JPEG, WebP or SVG. */
export function sniffImageFormat(head: Buffer): ImageFormat | undefined {
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (isXmlText(head)) return 'svg';
  return undefined;
}

const BY_EXTENSION = new Map(Object.values(IMAGE_FORMATS).map((info) => [info.extension, info]));

/** The Content-Type of a stored logo, from its object name's extension. */
export function contentTypeOfFilename(filename: string): string | undefined {
  const extension = filename.slice(filename.lastIndexOf('.') + 1);
  return BY_EXTENSION.get(extension as FormatInfo['extension'])?.contentType;
}
