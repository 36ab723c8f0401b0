import { contrastRatio, hexLuminance, logoAppearance, logoBackdrop, relativeLuminance, weakestContrast } from '../src/logo-backdrop';

type Pixel = [number, number, number, number];

const CLEAR: Pixel = [0, 0, 0, 0];
const WHITE: Pixel = [255, 255, 255, 255];
const BLACK: Pixel = [0, 0, 0, 255];

/** A square image of `side` pixels: each pixel from `paint(x, y)`, as RGBA with its row width. */
function image(side: number, paint: (x: number, y: number) => Pixel): [Uint8Array, number] {
  const data: number[] = [];
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) data.push(...paint(x, y));
  return [new Uint8Array(data), side];
}

/** Within `radius` of the middle of a 40-pixel square. */
const within = (radius: number) => (x: number, y: number) => Math.hypot(x - 19.5, y - 19.5) <= radius;
/** A disc of `mark` on `ground` (a 40-pixel square), like a logo's mark on its background. */
const disc = (mark: Pixel, ground: Pixel = CLEAR, radius = 12) => image(40, (x, y) => (within(radius)(x, y) ? mark : ground));

const backdropOf = ([rgba, width]: [Uint8Array, number]) => logoBackdrop(logoAppearance(rgba, width));

describe('contrast (WCAG 2.1)', () => {
  it('gives 21:1 for black on white and 1:1 for a colour on itself', () => {
    expect(contrastRatio(relativeLuminance(0, 0, 0), relativeLuminance(255, 255, 255))).toBeCloseTo(21, 5);
    expect(contrastRatio(hexLuminance('#18181b'), hexLuminance('#18181b'))).toBe(1);
  });
});

describe('logoBackdrop', () => {
  it('puts a white logo on a transparent ground on dark, and a black one on light', () => {
    expect(backdropOf(disc(WHITE))).toBe('dark');
    expect(backdropOf(disc(BLACK))).toBe('light');
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
        const [rgba, width] = disc([...colour, 255]);
        const appearance = logoAppearance(rgba, width);
        expect(weakestContrast(appearance, logoBackdrop(appearance))).toBeGreaterThanOrEqual(3);
      }
    }
  });

  it('keeps an opaque logo (a white mark on its own black ground) on light', () => {
    const [rgba, width] = disc(WHITE, BLACK);
    expect(logoAppearance(rgba, width).transparent).toBe(false);
    expect(backdropOf([rgba, width])).toBe('light');
  });

  it('judges a logo by its outline, where the backdrop touches it: a white ring inside a blue square goes on light', () => {
    const blue: Pixel = [29, 78, 216, 255];
    // A blue square with transparent corners, a white ring in it: on dark the square's edge would fade (2.4:1).
    const ringInSquare = image(40, (x, y) => {
      if (!within(27)(x, y)) return CLEAR;
      return within(12)(x, y) && !within(6)(x, y) ? WHITE : blue;
    });
    expect(backdropOf(ringInSquare)).toBe('light');
    // The same ring alone on a transparent ground is white where it meets the backdrop.
    expect(backdropOf(image(40, (x, y) => (within(12)(x, y) && !within(6)(x, y) ? WHITE : CLEAR)))).toBe('dark');
  });

  it('judges a two-tone outline by its least visible part, not by its average', () => {
    // White on the left, mid-grey on the right: on light the white part vanishes, on dark the grey still shows.
    const grey: Pixel = [118, 118, 118, 255];
    expect(backdropOf(image(40, (x, y) => (within(12)(x, y) ? (x < 14 ? WHITE : grey) : CLEAR)))).toBe('dark');
  });

  it('ignores a faint shadow around the mark', () => {
    // A white mark with a wide dark shadow at 5% opacity: the backdrop shows through the shadow, so the mark's own
    // edge is what meets it.
    const shadowed = image(40, (x, y) => (within(10)(x, y) ? WHITE : within(19)(x, y) ? [0, 0, 0, 13] : CLEAR));
    expect(backdropOf(shadowed)).toBe('dark');
  });

  it('gives light to a logo stored without an appearance, and to one with no visible pixel', () => {
    expect(logoBackdrop(undefined)).toBe('light');
    expect(backdropOf(image(10, () => CLEAR))).toBe('light');
  });
});
