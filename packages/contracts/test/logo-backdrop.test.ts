import { contrastRatio, hexLuminance, logoAppearance, logoBackdrop, relativeLuminance, weakestContrast } from '../src/logo-backdrop';

type Pixel = [number, number, number, number];

/** RGBA pixels: `count` of each given pixel. */
const pixels = (...runs: [Pixel, number][]): Uint8Array =>
  new Uint8Array(runs.flatMap(([pixel, count]) => Array<Pixel>(count).fill(pixel).flat()));

const CLEAR: Pixel = [0, 0, 0, 0];

describe('contrast (WCAG 2.1)', () => {
  it('gives 21:1 for black on white and 1:1 for a colour on itself', () => {
    expect(contrastRatio(relativeLuminance(0, 0, 0), relativeLuminance(255, 255, 255))).toBeCloseTo(21, 5);
    expect(contrastRatio(hexLuminance('#18181b'), hexLuminance('#18181b'))).toBe(1);
  });
});

describe('logoBackdrop', () => {
  it('puts a white logo on a transparent ground on dark, and a black one on light', () => {
    expect(logoBackdrop(logoAppearance(pixels([[255, 255, 255, 255], 100], [CLEAR, 300])))).toBe('dark');
    expect(logoBackdrop(logoAppearance(pixels([[0, 0, 0, 255], 100], [CLEAR, 300])))).toBe('light');
  });

  it('gives every single-colour transparent logo at least 3:1 on its backdrop', () => {
    for (let value = 0; value <= 255; value += 5) {
      for (const colour of [
        [value, value, value],
        [value, 0, 0],
        [0, value, 0],
        [0, 0, value],
        [255, value, 0],
      ] as const) {
        const appearance = logoAppearance(pixels([[...colour, 255], 50], [CLEAR, 50]));
        expect(weakestContrast(appearance, logoBackdrop(appearance))).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('keeps an opaque logo (a white mark on its own black ground) on light', () => {
    const appearance = logoAppearance(pixels([[255, 255, 255, 255], 20], [[0, 0, 0, 255], 80]));
    expect(appearance.transparent).toBe(false);
    expect(logoBackdrop(appearance)).toBe('light');
  });

  it('judges a two-tone logo by its least visible part, not by its average', () => {
    // Mostly mid-grey text with a white part: on light the white part vanishes, on dark the grey still shows.
    const appearance = logoAppearance(pixels([[255, 255, 255, 255], 30], [[118, 118, 118, 255], 70], [CLEAR, 100]));
    expect(logoBackdrop(appearance)).toBe('dark');
  });

  it('weighs pixels by their opacity and ignores a faint shadow', () => {
    // A white mark with a soft dark shadow at 5% opacity: under a tenth of the weight, though more pixels than the mark.
    const appearance = logoAppearance(pixels([[255, 255, 255, 255], 40], [[0, 0, 0, 13], 60], [CLEAR, 100]));
    expect(logoBackdrop(appearance)).toBe('dark');
  });

  it('gives light to a logo stored without an appearance, and to one with no visible pixel', () => {
    expect(logoBackdrop(undefined)).toBe('light');
    expect(logoBackdrop(logoAppearance(pixels([CLEAR, 10])))).toBe('light');
  });
});
