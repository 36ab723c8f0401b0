// Test images made on the spot: real encoders (sharp) for valid files, hand-built bytes for hostile ones.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

type Rgb = { r: number; g: number; b: number };

const solid = (width: number, height: number, background: Rgb) => sharp({ create: { width, height, channels: 3, background } });

export const png = (width = 64, height = 64, background: Rgb = { r: 30, g: 90, b: 200 }) =>
  solid(width, height, background).png().toBuffer();
export const jpeg = (width = 64, height = 64) => solid(width, height, { r: 200, g: 60, b: 30 }).jpeg().toBuffer();
export const webp = (width = 64, height = 64) => solid(width, height, { r: 20, g: 160, b: 60 }).webp().toBuffer();

export const svg = (body = '<circle cx="32" cy="32" r="24" fill="#1e5ac8"/>') =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">${body}</svg>`,
  );

/**
 * Nested `<use>`: `levels` groups, each holding `fan` uses of the one before, and one use of the last. It draws
 * fan^levels squares from a kilobyte or two (10^8 from 1.6 kB at 8 levels of 10).
 */
export const nestedUseSvg = (levels: number, fan = 10) => {
  let defs = '<g id="a0"><rect width="1" height="1" fill="#c33"/></g>';
  for (let level = 1; level <= levels; level += 1)
    defs += `<g id="a${level}">${Array.from({ length: fan }, (_, index) => `<use href="#a${level - 1}" x="${index % 2}"/>`).join('')}</g>`;
  return svg(`<defs>${defs}</defs><use href="#a${levels}"/>`);
};

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A decompression bomb: a valid PNG of width×height 1-bit grey pixels that is a few tens of KB on
 * disk but 400 MB once decoded (at the default 20000×20000).
 */
export function pixelBombPng(width = 20_000, height = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // colour type: greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // filter byte 0 and black pixels, every row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real ZIP archive (one stored file), to be sent under a .png name. */
export function zipArchive(name = 'readme.txt', content = Buffer.from('not an image\n')): Buffer {
  const fileName = Buffer.from(name);
  const crc = crc32(content);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(content.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const localSize = local.length + fileName.length + content.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(localSize, 16);
  return Buffer.concat([local, fileName, content, central, fileName, end]);
}

/** `size` bytes that start like a PNG: too large for any limit to let through. */
export const oversized = (size: number) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8, 7)]);
