import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logoBackdrop } from '@logovote/contracts';
import sharp from 'sharp';
import {
  DEFAULT_SVG_SETTINGS,
  NsfwjsModeration,
  SvgTooComplex,
  UploadRejected,
  createUploadPipeline,
  type UploadPipeline,
  type UploadedFile,
} from '../src';
import { jpeg, nestedUseSvg, pixelBombPng, png, svg, webp, zipArchive } from './fixtures';

// The real classifier (nsfwjs on TensorFlow.js's WebAssembly backend), loaded once for the file.
jest.setTimeout(30_000);
const classifier = new NsfwjsModeration({ threshold: 0.7 });
const pipeline = createUploadPipeline({ moderation: classifier });
const dir = mkdtempSync(join(tmpdir(), 'pipeline-test-'));
let count = 0;

function fileOf(bytes: Buffer, originalName: string): UploadedFile {
  const path = join(dir, String((count += 1)));
  writeFileSync(path, bytes);
  return { originalName, declaredType: 'image/png', path, size: bytes.length };
}

async function rejection(run: UploadPipeline, file: UploadedFile): Promise<UploadRejected> {
  const error = await run.inspect(file).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UploadRejected);
  return error as UploadRejected;
}

describe('the upload pipeline', () => {
  beforeAll(() => classifier.warmUp(), 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['png', png, 'image/png', 'png'],
    ['jpeg', jpeg, 'image/jpeg', 'jpg'],
    ['webp', webp, 'image/webp', 'webp'],
    ['svg', async () => svg(), 'image/svg+xml', 'svg'],
  ] as const)('accepts a %s logo, classified by the local model', async (format, make, contentType, extension) => {
    const bytes = await make();
    const image = await pipeline.inspect(fileOf(bytes, `logo.${format}`));
    expect(image).toMatchObject({ format, contentType, extension, width: 64, height: 64, size: bytes.length });
    expect(image.moderation.isValid).toBe(true);
    expect(image.moderation.rawResponse).toMatchObject({ provider: 'nsfwjs', model: 'MobileNetV2', predictions: expect.any(Array) });
  });

  it('reads greyscale, transparent, 16-bit and CMYK images alike', async () => {
    const base = () => sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 10, g: 200, b: 90, alpha: 0.5 } } });
    const variants: [string, Buffer][] = [
      ['grey.png', await base().greyscale().png().toBuffer()],
      ['alpha.png', await base().png().toBuffer()],
      ['deep.png', await base().png({ palette: false }).toColourspace('rgb16').toBuffer()],
      ['cmyk.jpg', await base().jpeg().toColourspace('cmyk').toBuffer()],
      ['alpha.webp', await base().webp({ lossless: true }).toBuffer()],
    ];
    for (const [name, bytes] of variants) {
      const image = await pipeline.inspect(fileOf(bytes, name));
      expect([name, image.width, image.height, image.moderation.isValid]).toEqual([name, 40, 30, true]);
    }
  });

  it('measures each logo once: a white mark on a transparent ground goes on dark, a black one and an opaque one on light', async () => {
    const mark = (colour: string, ground: string) =>
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="${ground}"/><circle cx="32" cy="32" r="20" fill="${colour}"/></svg>`,
      );
    const cases: [string, Buffer, boolean, 'light' | 'dark'][] = [
      ['white.png', await sharp(mark('#ffffff', 'none')).png().toBuffer(), true, 'dark'],
      ['black.webp', await sharp(mark('#000000', 'none')).webp({ lossless: true }).toBuffer(), true, 'light'],
      ['white.svg', mark('#ffffff', 'none'), true, 'dark'],
      ['white-on-blue.jpg', await sharp(mark('#ffffff', '#1d4ed8')).jpeg().toBuffer(), false, 'light'],
    ];
    for (const [name, bytes, transparent, backdrop] of cases) {
      const { appearance } = await pipeline.inspect(fileOf(bytes, name));
      expect([name, appearance.transparent, logoBackdrop(appearance)]).toEqual([name, transparent, backdrop]);
    }
  });

  it('goes by the bytes, not the name: a JPEG called .png is stored as a JPEG', async () => {
    const image = await pipeline.inspect(fileOf(await jpeg(), 'logo.png'));
    expect(image.format).toBe('jpeg');
    expect(image.extension).toBe('jpg');
  });

  it('refuses a ZIP archive called .png as an unsupported type (415)', async () => {
    const error = await rejection(pipeline, fileOf(zipArchive(), 'logo.png'));
    expect(error.status).toBe(415);
    expect(error.message).toBe('"logo.png" is not a PNG, JPEG, SVG or WebP image');
  });

  it('refuses a GIF and an HTML page', async () => {
    expect((await rejection(pipeline, fileOf(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'a.gif'))).status).toBe(415);
    expect((await rejection(pipeline, fileOf(Buffer.from('<html><script>alert(1)</script></html>'), 'a.svg'))).status).toBe(415);
  });

  it('refuses a 20000×20000 PNG before decoding it (decompression bomb)', async () => {
    const bomb = pixelBombPng();
    expect(bomb.length).toBeLessThan(100_000);
    const error = await rejection(pipeline, fileOf(bomb, 'bomb.png'));
    expect(error.status).toBe(422);
    expect(error.stage).toBe('dimensions');
    expect(error.message).toBe('"bomb.png" is 20000×20000 pixels; logos may have at most 25 million pixels');
  });

  it('refuses a truncated PNG that only looks right in its header', async () => {
    const whole = await png(400, 400, { r: 1, g: 2, b: 3 });
    const error = await rejection(pipeline, fileOf(whole.subarray(0, Math.floor(whole.length / 2)), 'cut.png'));
    expect(error.status).toBe(422);
    expect(error.stage).toBe('decode');
  });

  it('refuses SVGs with a script or an onload handler', async () => {
    const script = await rejection(pipeline, fileOf(svg('<script>alert(1)</script>'), 'script.svg'));
    expect(script.status).toBe(422);
    expect(script.message).toMatch(/^"script\.svg" was refused: SVG logos must not contain scripts.*<script> element/);
    const onload = await rejection(
      pipeline,
      fileOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'onload.svg'),
    );
    expect(onload.message).toMatch(/event handler attribute onload/);
  });

  it('refuses an SVG too complex to draw before drawing it, naming what is over the limit', async () => {
    const error = await rejection(pipeline, fileOf(nestedUseSvg(8), 'bomb.svg'));
    expect(error).toBeInstanceOf(SvgTooComplex);
    expect(error.status).toBe(422);
    expect(error.stage).toBe('svg');
    expect(error.message).toMatch(
      /^"bomb\.svg" is too complex to draw safely: .*elements to draw once references are expanded \(at most 30,000\)/,
    );
  });

  it('refuses an SVG whose drawing runs past the time budget', async () => {
    // 13^5 (371,293) squares: within these raised limits and librsvg's own, and about three times the budget of
    // librsvg's time on an idle machine, more on a busy one.
    const raised = { ...DEFAULT_SVG_SETTINGS, SVG_MAX_INSTANCES: 1e9, SVG_RENDER_TIMEOUT_MS: 1000 };
    const slow = createUploadPipeline({ moderation: classifier, svg: raised });
    const error = await rejection(slow, fileOf(nestedUseSvg(5, 13), 'slow.svg'));
    expect(error).toBeInstanceOf(SvgTooComplex);
    expect(error.message).toMatch(/^"slow\.svg" is too complex to draw safely: drawing it took longer than 1 s/);
  }, 60_000);

  it('refuses what the classifier flags (a threshold of 0 flags everything)', async () => {
    const strict = createUploadPipeline({ moderation: new NsfwjsModeration({ threshold: 0 }) });
    const error = await rejection(strict, fileOf(await png(), 'logo.png'));
    expect(error.status).toBe(422);
    expect(error.stage).toBe('moderation');
    expect(error.message).toMatch(/^"logo\.png" was rejected by content moderation: Nudity detected/);
    expect(error.details).toMatchObject({ provider: 'nsfwjs', threshold: 0 });
  }, 60_000);
});
