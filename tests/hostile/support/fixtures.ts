/**
 * Hostile files built from source at test time (a few milliseconds each): decompression bombs, polyglots and
 * files that lie about what they are. Nothing here is a binary checked into the repository.
 */
import { crc32, deflateSync, gzipSync } from 'node:zlib';
import sharp from 'sharp';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A real PNG decompression bomb: a 1-bit greyscale image of width×height whose every pixel is black. The
 * file is a few kilobytes; decoded to RGB it would need width×height×3 bytes (300 MB at 10000×10000).
 */
export function pngBomb(width = 10_000, height = 10_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const rowBytes = 1 + Math.ceil(width / 8); // filter byte + packed pixels
  const pixels = deflateSync(Buffer.alloc(rowBytes * height), { level: 9 });
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A small valid image of each format the product accepts. */
export async function validImages(): Promise<{ png: Buffer; jpeg: Buffer; webp: Buffer }> {
  const base = sharp({ create: { width: 48, height: 48, channels: 3, background: { r: 30, g: 90, b: 200 } } });
  const [png, jpeg, webp] = await Promise.all([
    base.clone().png().toBuffer(),
    base.clone().jpeg().toBuffer(),
    base.clone().webp().toBuffer(),
  ]);
  return { png, jpeg, webp };
}

/** A JPEG whose frame header (SOF) claims width×height: a bomb by its header, refused before decoding. */
export function jpegClaiming(jpeg: Buffer, width: number, height: number): Buffer {
  const patched = Buffer.from(jpeg);
  for (let offset = 2; offset < patched.length - 9;) {
    if (patched[offset] !== 0xff) throw new Error('jpegClaiming: not a JPEG marker');
    const marker = patched[offset + 1]!;
    const length = patched.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xc3) {
      patched.writeUInt16BE(height, offset + 5);
      patched.writeUInt16BE(width, offset + 7);
      return patched;
    }
    offset += 2 + length;
  }
  throw new Error('jpegClaiming: no frame header');
}

/** The first half of a file: its signature is right, its data ends abruptly. */
export const truncated = (file: Buffer): Buffer => file.subarray(0, Math.floor(file.length / 2));

/** A gzip member that inflates to `bytes` (10 MB by default, about 10 KB compressed) of one repeated character. */
export const gzipBomb = (bytes = 10 * 1024 * 1024, fill = ' '): Buffer => gzipSync(Buffer.alloc(bytes, fill), { level: 9 });

/** The smallest ZIP archive (an empty one): what a .docx, .jar or .apk starts like. */
export const emptyZip = (): Buffer => Buffer.from('504b0506000000000000000000000000000000000000', 'hex');

/** The 8 GIF polyglot bytes that are also JavaScript (GIFAR-style): GIF is not an accepted type anyway. */
export const gifScript = (): Buffer => Buffer.from('GIF89a/*\x01\x00\x01\x00\x00\x00\x00*/=1;alert(document.domain)//;', 'latin1');

/** A PNG signature in front of an HTML document: sniffed as PNG, fails to decode as one. */
export const pngHtmlPolyglot = (): Buffer =>
  Buffer.concat([PNG_SIGNATURE, Buffer.from('<html><script>alert(document.cookie)</script></html>')]);

/** A JPEG start-of-image marker in front of a script. */
export const jpegScriptPolyglot = (): Buffer =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('<script>alert(1)</script>')]);

/** A WebP RIFF header whose payload is HTML. */
export const webpHtmlPolyglot = (): Buffer =>
  Buffer.concat([Buffer.from('RIFF\x40\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.from('<html><script>alert(1)</script></html>')]);

/** A valid PNG with a script appended after its end: still a valid PNG, and served as nothing but one. */
export const pngWithTrailingScript = (png: Buffer): Buffer => Buffer.concat([png, Buffer.from('<script>alert(document.cookie)</script>')]);

const svg = (inner: string, attributes = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"${attributes}>${inner}</svg>`;

/** SVG documents that try to run script, load from elsewhere or expand themselves: each must be refused. */
export const HOSTILE_SVGS: Record<string, string> = {
  'a <script> element': svg('<script>alert(1)</script><rect width="64" height="64"/>'),
  'a <script> in CDATA': svg('<script><![CDATA[alert(document.cookie)]]></script>'),
  'an upper-case <SCRIPT> element': svg('<SCRIPT>alert(1)</SCRIPT>'),
  'a namespaced script element': '<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script></s:svg>',
  'an onload handler': svg('<rect width="64" height="64"/>', ' onload="alert(1)"'),
  'an upper-case ONCLICK handler': svg('<rect width="64" height="64" ONCLICK="alert(1)"/>'),
  'a javascript: link': svg('<a href="javascript:alert(1)"><rect width="64" height="64"/></a>'),
  'an xlink:href javascript: link': svg(
    '<a xlink:href="javascript:alert(1)"><rect width="9" height="9"/></a>',
    ' xmlns:xlink="http://www.w3.org/1999/xlink"',
  ),
  'a javascript: URL split by an encoded tab': svg('<a href="jav&#x09;ascript:alert(1)"><rect width="9" height="9"/></a>'),
  'a <foreignObject> with HTML': svg(
    '<foreignObject width="64" height="64"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/></foreignObject>',
  ),
  'an external <image>': svg('<image href="https://evil.example/track.png" width="64" height="64"/>'),
  'an external <use>': svg('<use href="https://evil.example/sprite.svg#a"/>'),
  'a CSS @import': svg('<style>@import url(https://evil.example/x.css);</style>'),
  'a CSS url() to another site': svg('<style>rect{fill:url(https://evil.example/x)}</style><rect width="9" height="9"/>'),
  'a CSS escape spelling url(': svg('<rect width="9" height="9" style="fill:\\75rl(https://evil.example)"/>'),
  'an animation that rewrites a link': svg(
    '<a href="#x"><set attributeName="href" to="javascript:alert(1)"/><rect width="9" height="9"/></a>',
  ),
  'an <embed> element': svg('<embed src="https://evil.example/x.swf"/>'),
  'an entity expansion ("billion laughs")': `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>${svg('<text>&c;</text>')}`,
  'an external entity (XXE)': `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${svg('<text>&x;</text>')}`,
  'an xml-stylesheet processing instruction': `<?xml-stylesheet type="text/xsl" href="https://evil.example/x.xsl"?>${svg('<rect width="9" height="9"/>')}`,
};

/** An SVG that declares a canvas far over the pixel limit. */
export const hugeSvg = (): string =>
  svg('<rect width="10" height="10"/>').replace('width="64" height="64"', 'width="100000" height="100000"');

// ── SVGs that cost too much to draw (the SVG cost limits) ──────────────────────────────────────────────────

/** A `<set>` that rewrites a link to another site, its attribute named through a prefix other than `xlink`. */
export const xlinkPrefixAnimation = (): string =>
  svg(
    '<a href="#logo"><set attributeName="xl:href" to="https://attacker.example/" begin="0s"/><rect id="logo" width="64" height="64"/></a>',
    ' xmlns:xl="http://www.w3.org/1999/xlink"',
  );

/** `<use>` elements that draw each other. */
export const useCycleSvg = (): string => svg('<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>');
