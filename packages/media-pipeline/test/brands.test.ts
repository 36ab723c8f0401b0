import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import tesseract from 'tesseract.js';
import {
  BrandMatcher,
  BrandModeration,
  ModerationSuite,
  ModerationUnavailable,
  UploadRejected,
  createModerationProvider,
  createUploadPipeline,
  loadBrandList,
  moderationEnv,
  parseBrandList,
  type ReadWord,
  type UploadedFile,
} from '../src';
import { brandTextLogos, plainTextLogos } from './labelled/brand-logos';

jest.setTimeout(60_000);

/** Words as the OCR gives them: each space-separated part one word, read with this confidence. */
const read = (text: string, confidence = 95): ReadWord[] => text.split(' ').map((word) => ({ text: word, confidence }));

describe('the brand list', () => {
  const brands = loadBrandList();

  it('holds a few hundred well-known names, none twice', () => {
    expect(brands.length).toBeGreaterThanOrEqual(300);
    expect(new Set(brands.map((brand) => brand.key)).size).toBe(brands.length);
    expect(brands.find((brand) => brand.name === 'Coca-Cola')).toMatchObject({ key: 'cocacola', alone: false, exact: false });
    expect(brands.find((brand) => brand.name === 'Apple')).toMatchObject({ alone: true });
    expect(brands.find((brand) => brand.name === 'IBM')).toMatchObject({ alone: true });
  });

  it('reads names, markers and comments; a two-letter name is refused', () => {
    expect(parseBrandList('# comment\n\nGoogle\nApple [alone]\nPinterest [exact]\n  AT&T  \n')).toEqual([
      { name: 'Google', key: 'google', alone: false, exact: false },
      { name: 'Apple', key: 'apple', alone: true, exact: false },
      { name: 'Pinterest', key: 'pinterest', alone: false, exact: true },
      { name: 'AT&T', key: 'att', alone: true, exact: false },
    ]);
    expect(() => parseBrandList('HP')).toThrow(/monogram/);
  });
});

describe('matching what the OCR read', () => {
  const matcher = new BrandMatcher(loadBrandList());
  const brandOf = (words: ReadWord[]) => matcher.match(words)?.brand;

  it('ignores case, spacing and punctuation', () => {
    for (const text of ['Google', 'GOOGLE', 'google', 'G O O G L E', 'goo gle', 'GoOgLe', 'Google.'])
      expect([text, brandOf(read(text))]).toEqual([text, 'Google']);
    expect(brandOf(read('COCA COLA'))).toBe('Coca-Cola');
    expect(brandOf(read('MCDONALDS'))).toBe("McDonald's");
    expect(brandOf(read('Nescafe'))).toBe('Nescafé');
    expect(matcher.match(read('G O O G L E'))).toEqual({ brand: 'Google', read: 'G O O G L E', approximate: false });
  });

  it('finds a distinctive name among other words, but never inside a longer word', () => {
    expect(brandOf(read('The Google Fan Club'))).toBe('Google');
    expect(brandOf(read('BURGER KING'))).toBe('Burger King');
    expect(brandOf(read('Tesla Owners'))).toBe('Tesla');
    for (const text of ['Metaphor', 'Teslarian Books', 'Googleplex', 'Adidasie', 'Sunrise Bakery', 'Blue Lagoon Studio'])
      expect([text, brandOf(read(text))]).toEqual([text, undefined]);
  });

  it('refuses an everyday word that is also a brand only when it is all the logo says', () => {
    expect(brandOf(read('Apple'))).toBe('Apple');
    expect(brandOf(read('APPLE'))).toBe('Apple');
    expect(brandOf(read('Meta'))).toBe('Meta');
    for (const text of ['Apple Orchard Farm', 'Meta Physics Lab', 'Delta Dental Lab', 'Shell Beach Surf', 'Visa Travel Agency'])
      expect([text, brandOf(read(text))]).toEqual([text, undefined]);
    // What an icon is read as (low confidence) does not count against "all the logo says".
    expect(brandOf([{ text: '@', confidence: 30 }, ...read('Apple'), { text: 'ii', confidence: 20 }])).toBe('Apple');
  });

  it('matches short names only alone and read with high confidence', () => {
    expect(brandOf(read('IBM'))).toBe('IBM');
    expect(brandOf(read('I B M'))).toBe('IBM');
    expect(brandOf(read('IBM', 60))).toBeUndefined();
    expect(brandOf(read('IBM Consulting'))).toBeUndefined();
    expect(brandOf(read('Bmw Kfc'))).toBeUndefined();
    // Nor with OCR confusions: "KIM" is not "KLM", nor "DELI" "Dell", nor "FLAT" "Fiat".
    for (const text of ['KIM', 'DELI', 'FLAT']) expect([text, brandOf(read(text))]).toEqual([text, undefined]);
    // Two letters are left out of the list: monograms.
    expect(brandOf(read('HP'))).toBeUndefined();
  });

  it('forgives the OCR errors it makes most, and one error in long names only', () => {
    expect(brandOf(read('rnicrosoft'))).toBe('Microsoft');
    expect(brandOf(read('G00GLE'))).toBe('Google');
    expect(matcher.match(read('Facebok'))).toMatchObject({ brand: 'Facebook', approximate: true });
    expect(brandOf(read('Starbuks'))).toBe('Starbucks');
    // Shorter names, and long names one letter from an everyday word, must be read exactly.
    for (const text of ['Googel', 'Goggle', 'Golden Goggles', 'Nikes', 'interest', 'Gamier', 'espresso', 'valentine', 'Barberry Farm'])
      expect([text, brandOf(read(text))]).toEqual([text, undefined]);
  });
});

describe('the brand check on text logos (real OCR)', () => {
  const createWorker = jest.spyOn(tesseract, 'createWorker');
  const workers = 2;
  const provider = new BrandModeration({ workers });
  const pipeline = createUploadPipeline({ moderation: new ModerationSuite([{ check: 'brands', provider }]) });
  const dir = mkdtempSync(join(tmpdir(), 'brands-test-'));
  const cwdBefore = readdirSync(process.cwd()).sort();

  async function inspect(name: string, png: Buffer) {
    const path = join(dir, name);
    writeFileSync(path, png);
    const file: UploadedFile = { originalName: name, declaredType: 'image/png', path, size: png.length };
    return pipeline.inspect(file).then(
      (image) => ({ refused: false, reason: image.moderation.reason, raw: image.moderation.rawResponse }),
      (error: unknown) => {
        if (!(error instanceof UploadRejected)) throw error;
        return { refused: true, reason: error.message, raw: error.details };
      },
    );
  }

  beforeAll(async () => {
    await provider.warmUp();
    await provider.warmUp();
  });
  afterAll(async () => {
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses at least 90 % of the logos that read a brand, naming the brand check', async () => {
    const logos = await brandTextLogos();
    expect(logos.length).toBeGreaterThanOrEqual(20);
    const missed: string[] = [];
    for (const logo of logos) {
      const verdict = await inspect(logo.name, logo.png);
      if (verdict.refused) {
        expect(verdict.raw).toMatchObject({ refusedBy: ['brands'] });
        expect(verdict.reason).toContain(`The logo reads "${logo.brand}"`);
        expect(verdict.reason).toContain('a well-known brand name: possibly impersonating');
      } else {
        missed.push(
          `${logo.name} (read ${JSON.stringify((verdict.raw as { checks: [{ rawResponse: { text: string } }] }).checks[0].rawResponse.text)})`,
        );
      }
    }
    // The misses are named in the failure, with what was read.
    expect({ missed, recall: (logos.length - missed.length) / logos.length >= 0.9 }).toEqual({ missed: expect.any(Array), recall: true });
  });

  it('lets every logo whose words are no brand through', async () => {
    const logos = await plainTextLogos();
    expect(logos.length).toBeGreaterThanOrEqual(10);
    const refused: string[] = [];
    for (const logo of logos) {
      const verdict = await inspect(logo.name, logo.png);
      if (verdict.refused) refused.push(`${logo.name}: ${verdict.reason}`);
    }
    expect(refused).toEqual([]);
  });

  it('reports the text read, its confidence and the brand in the raw response', async () => {
    const [google] = await brandTextLogos();
    const verdict = await provider.moderate(await previewOf(google!.png));
    expect(verdict).toMatchObject({ isValid: false, reason: 'The logo reads "Google", a well-known brand name: possibly impersonating' });
    expect(verdict.rawResponse).toMatchObject({
      provider: 'tesseract',
      model: 'eng 4.0.0_best_int',
      text: 'Google',
      confidence: expect.any(Number),
      brand: 'Google',
      elapsedMs: expect.any(Number),
    });
  });

  it('started its workers once, for every image', () => {
    expect(createWorker).toHaveBeenCalledTimes(workers);
  });

  it('wrote no file into the working directory (no traineddata cache)', () => {
    expect(readdirSync(process.cwd()).sort()).toEqual(cwdBefore);
  });

  it('ends its workers on close; then it refuses to judge (503) rather than let images through', async () => {
    const closing = new BrandModeration({ workers: 1 });
    await closing.warmUp();
    await closing.close();
    const [google] = await brandTextLogos();
    await expect(closing.moderate(await previewOf(google!.png))).rejects.toBeInstanceOf(ModerationUnavailable);
  });
});

describe('the brand check in the services', () => {
  it('runs beside the other checks unless switched off, with its workers configurable', () => {
    const checks = (env: Record<string, string>) => createModerationProvider(moderationEnv.parse(env)).checks;
    expect(checks({}).find((check) => check.check === 'brands')?.provider).toBeInstanceOf(BrandModeration);
    expect(checks({ MODERATION_BRANDS: 'off' }).some((check) => check.check === 'brands')).toBe(false);
    expect(() => moderationEnv.parse({ MODERATION_OCR_WORKERS: '0' })).toThrow();
    expect(moderationEnv.parse({}).MODERATION_OCR_WORKERS).toBeGreaterThanOrEqual(1);
  });
});

/** The raw RGB preview the upload pipeline hands to moderation (512 px at most). */
async function previewOf(png: Buffer) {
  const { data, info } = await sharp(png)
    .flatten({ background: '#ffffff' })
    .resize(512, 512, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
