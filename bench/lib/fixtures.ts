import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

/** A deterministic pseudo-random byte stream (xorshift32), so every run uploads the same files. */
function noise(seed: number): () => number {
  let state = seed || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state & 0xff;
  };
}

/**
 * A real RGB PNG of side×side: a coloured disc on a light background (a logo), with grain throughout
 * so that it hardly compresses.
 */
function grainyLogoPng(side: number, hue: [number, number, number], seed: number): Promise<Buffer> {
  const next = noise(seed);
  const pixels = Buffer.alloc(side * side * 3);
  const radius = side * 0.35;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const inside = (x - side / 2) ** 2 + (y - side / 2) ** 2 < radius ** 2;
      for (let c = 0; c < 3; c++) {
        const base = inside ? hue[c]! : 235;
        pixels[(y * side + x) * 3 + c] = Math.max(0, Math.min(255, base + (next() % 64) - 32));
      }
    }
  }
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

const HUES: [number, number, number][] = [
  [220, 60, 50],
  [40, 120, 220],
  [30, 170, 90],
  [240, 180, 30],
];

/**
 * Four PNG logos just under `maxBytes` each (the upload limit), written to `dir`; returns their paths
 * and sizes. A small image tells how well the grain compresses; the side is then chosen from it.
 */
export async function writeLargeLogos(dir: string, maxBytes: number): Promise<{ paths: string[]; sizes: number[] }> {
  mkdirSync(dir, { recursive: true });
  const paths: string[] = [];
  const sizes: number[] = [];
  for (const [index, hue] of HUES.entries()) {
    const probeSide = 400;
    const bytesPerPixel = (await grainyLogoPng(probeSide, hue, index + 1)).length / probeSide ** 2;
    let side = Math.floor(Math.sqrt((maxBytes * 0.995) / bytesPerPixel));
    let png = await grainyLogoPng(side, hue, index + 1);
    while (png.length > maxBytes) {
      side -= 2;
      png = await grainyLogoPng(side, hue, index + 1);
    }
    const path = join(dir, `large-logo-${index + 1}.png`);
    writeFileSync(path, png);
    paths.push(path);
    sizes.push(png.length);
  }
  return { paths, sizes };
}
