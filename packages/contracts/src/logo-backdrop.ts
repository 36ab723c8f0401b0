/*
 * Which backdrop shows a logo (docs/logo-backdrops.md): the pure rule from a logo's pixels to what it looks like
 * (its appearance) and from that to a backdrop. Free of zod and of the other contracts, so the creation page
 * runs the same rule in the browser on pixels read from a canvas ('@logovote/contracts/logo-backdrop') as the
 * server runs at upload.
 */

/** The backdrops a logo is shown on by default: light logos on dark, dark (and opaque) ones on light. */
export const LOGO_BACKDROPS = ['light', 'dark'] as const;
export type LogoBackdrop = (typeof LOGO_BACKDROPS)[number];

/** The backdrops' colours (sRGB hex): white, and the component kit's near-black (zinc-900). */
export const BACKDROP_COLOURS: Record<LogoBackdrop, string> = { light: '#ffffff', dark: '#18181b' };

/**
 * What the backdrop rule needs of a logo, measured once at upload.
 * `darkLuminance` and `lightLuminance` are the 10th and 90th percentiles of the relative luminance of the
 * pixels where the logo meets its backdrop (its outline: visible pixels beside a transparent one or at the
 * image's border), each weighed by its opacity: the darkest and the lightest parts of that outline, ignoring
 * a few stray pixels. A white ring inside a blue square is judged by the blue, which is what the backdrop
 * touches.
 */
export interface LogoAppearance {
  /** Some pixel is not fully opaque: the backdrop shows through. */
  transparent: boolean;
  darkLuminance: number;
  lightLuminance: number;
}

/** The lowest contrast WCAG 2.1 (1.4.11, non-text contrast) accepts between a graphic and what is around it. */
export const NON_TEXT_CONTRAST = 3;

/** Percentiles of the outline's luminance that stand for its darkest and its lightest parts. */
const DARK_PERCENTILE = 0.1;
const LIGHT_PERCENTILE = 0.9;

const channel = (value: number): number => {
  const c = value / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** WCAG 2.1 relative luminance of an sRGB colour (0-255 channels). */
export function relativeLuminance(red: number, green: number, blue: number): number {
  return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue);
}

/** WCAG 2.1 contrast ratio between two relative luminances (1 to 21). */
export function contrastRatio(first: number, second: number): number {
  return (Math.max(first, second) + 0.05) / (Math.min(first, second) + 0.05);
}

/** At least this opaque (of 255), a pixel hides the backdrop; below it, the backdrop shows through. */
const VISIBLE_ALPHA = 128;

/** Relative luminance of a '#rrggbb' colour. */
export function hexLuminance(hex: string): number {
  const value = Number.parseInt(hex.slice(1), 16);
  return relativeLuminance((value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff);
}

/**
 * A logo's appearance from its RGBA pixels, `width` to a row (straight, not premultiplied alpha: what a canvas's
 * getImageData and sharp's raw output give). A logo whose outline has no pixel (nothing at least half opaque)
 * is judged by all its visible pixels; one with no visible pixel at all counts as black.
 */
export function logoAppearance(rgba: ArrayLike<number>, width: number): LogoAppearance {
  const count = Math.floor(rgba.length / 4);
  const height = Math.ceil(count / width);
  const alphaAt = (x: number, y: number): number => rgba[(y * width + x) * 4 + 3] ?? 0;
  const onOutline = (x: number, y: number): boolean =>
    x === 0 ||
    y === 0 ||
    x === width - 1 ||
    y === height - 1 ||
    alphaAt(x - 1, y) < VISIBLE_ALPHA ||
    alphaAt(x + 1, y) < VISIBLE_ALPHA ||
    alphaAt(x, y - 1) < VISIBLE_ALPHA ||
    alphaAt(x, y + 1) < VISIBLE_ALPHA;
  // Luminance in 256 bins, each weighed by the opacity of its pixels: the percentiles without sorting.
  const outline = new Float64Array(256);
  const visible = new Float64Array(256);
  let transparent = false;
  for (let index = 0; index < count; index++) {
    const at = index * 4;
    const alpha = rgba[at + 3]!;
    if (alpha < 255) transparent = true;
    if (alpha === 0) continue;
    const bin = Math.min(255, Math.floor(relativeLuminance(rgba[at]!, rgba[at + 1]!, rgba[at + 2]!) * 256));
    visible[bin]! += alpha;
    if (alpha >= VISIBLE_ALPHA && onOutline(index % width, Math.floor(index / width))) outline[bin]! += alpha;
  }
  const weight = (bins: Float64Array) => bins.reduce((sum, value) => sum + value, 0);
  const bins = weight(outline) > 0 ? outline : visible;
  const total = weight(bins);
  const percentile = (share: number): number => {
    if (total === 0) return 0;
    let seen = 0;
    for (let bin = 0; bin < 256; bin++) {
      seen += bins[bin]!;
      if (seen >= share * total) return (bin + 0.5) / 256;
    }
    return 1;
  };
  return { transparent, darkLuminance: percentile(DARK_PERCENTILE), lightLuminance: percentile(LIGHT_PERCENTILE) };
}

/**
 * The contrast of a logo's least visible outline on a backdrop: its lightest part on the light one, its darkest
 * on the dark one.
 */
export function weakestContrast(appearance: LogoAppearance, backdrop: LogoBackdrop): number {
  const ground = hexLuminance(BACKDROP_COLOURS[backdrop]);
  return contrastRatio(backdrop === 'light' ? appearance.lightLuminance : appearance.darkLuminance, ground);
}

/**
 * The backdrop that shows a logo best. An opaque logo carries its own background, so it keeps the light one
 * (the page's); a transparent one gets the backdrop on which its least visible part contrasts most.
 * A logo stored without an appearance gets the light one.
 */
export function logoBackdrop(appearance: LogoAppearance | null | undefined): LogoBackdrop {
  if (!appearance?.transparent) return 'light';
  return weakestContrast(appearance, 'dark') > weakestContrast(appearance, 'light') ? 'dark' : 'light';
}
