// Text logos of the labelled moderation set, made on the spot (docs/moderation.md): logos that read a
// well-known brand name (the brand check must refuse them) and logos whose words are no brand (every one must
// pass). Each is a PNG drawn with sharp: the background and icons from SVG (librsvg), the words set by Pango
// in Inter, the font @expo-google-fonts/inter ships, so they look the same on every machine (librsvg would
// take whatever fonts the machine has). They vary what a brand check meets: weights from Thin to Black,
// italics, dark on light and light on dark, letter-spacing, mixed case, icons beside or above the words,
// two-line layouts and words inside a badge.
import { dirname, join } from 'node:path';
import escapeHtml from 'escape-html';
import sharp from 'sharp';

type InterStyle =
  | '200ExtraLight'
  | '300Light'
  | '400Regular'
  | '500Medium'
  | '600SemiBold'
  | '700Bold'
  | '800ExtraBold'
  | '900Black'
  | '400Regular_Italic'
  | '700Bold_Italic';

/** Pango's name for each style of the family. */
const PANGO_STYLE: Record<InterStyle, string> = {
  '200ExtraLight': 'Inter ExtraLight',
  '300Light': 'Inter Light',
  '400Regular': 'Inter',
  '500Medium': 'Inter Medium',
  '600SemiBold': 'Inter SemiBold',
  '700Bold': 'Inter Bold',
  '800ExtraBold': 'Inter ExtraBold',
  '900Black': 'Inter Black',
  '400Regular_Italic': 'Inter Italic',
  '700Bold_Italic': 'Inter Bold Italic',
};

const FONT_DIR = dirname(require.resolve('@expo-google-fonts/inter/package.json'));

/** Shapes drawn beside or above the words, in a 100×100 box, in the logo's accent colour. */
const ICONS = {
  circle: (colour: string) => `<circle cx="50" cy="50" r="46" fill="${colour}"/>`,
  squares: () =>
    '<rect x="2" y="2" width="46" height="46" fill="#f25022"/><rect x="52" y="2" width="46" height="46" fill="#7fba00"/>' +
    '<rect x="2" y="52" width="46" height="46" fill="#00a4ef"/><rect x="52" y="52" width="46" height="46" fill="#ffb900"/>',
  play: (colour: string) =>
    `<rect x="0" y="14" width="100" height="72" rx="20" fill="${colour}"/><path d="M40 32 L68 50 L40 68 Z" fill="#ffffff"/>`,
  swoosh: (colour: string) => `<path d="M4 70 C30 96 70 70 98 20 C70 56 40 76 20 62 Z" fill="${colour}"/>`,
  waves: (colour: string) =>
    `<circle cx="50" cy="50" r="46" fill="${colour}"/><path d="M24 40 Q50 28 76 40 M28 54 Q50 44 72 54 M32 68 Q50 60 68 68" stroke="#ffffff" stroke-width="7" fill="none" stroke-linecap="round"/>`,
  leaf: (colour: string) =>
    `<path d="M50 4 C90 24 90 76 50 96 C10 76 10 24 50 4 Z" fill="${colour}"/><path d="M50 14 L50 88" stroke="#ffffff" stroke-width="5"/>`,
  mountain: (colour: string) =>
    `<path d="M2 90 L38 24 L58 58 L70 40 L98 90 Z" fill="${colour}"/><circle cx="76" cy="18" r="10" fill="${colour}"/>`,
  ring: (colour: string) => `<circle cx="50" cy="50" r="38" fill="none" stroke="${colour}" stroke-width="14"/>`,
  bolt: (colour: string) => `<path d="M58 2 L18 56 L46 56 L38 98 L82 40 L54 40 Z" fill="${colour}"/>`,
} satisfies Record<string, (colour: string) => string>;

export interface TextLogoDesign {
  /** What the logo says, as written (spaces and case included); '\n' starts a second line. */
  words: string;
  style: InterStyle;
  /** Font size in pixels. */
  size: number;
  colour: string;
  background: string;
  /** Extra space between letters, in pixels ('G O O G L E'). */
  letterSpacing?: number;
  icon?: { shape: keyof typeof ICONS; colour: string; place: 'left' | 'above' };
  /** The words sit in a rounded badge of this colour, on the background. */
  badge?: string;
  width?: number;
  height?: number;
}

export interface BrandTextLogo {
  name: string;
  /** The brand the logo reads, as the brand list writes it. */
  brand: string;
  png: Buffer;
}

export interface PlainTextLogo {
  name: string;
  png: Buffer;
}

/** The words as a transparent PNG, set by Pango in the design's style of Inter. */
async function wordsImage(design: TextLogoDesign): Promise<{ data: Buffer; width: number; height: number }> {
  const spacing = design.letterSpacing ? ` letter_spacing="${Math.round(design.letterSpacing * 1024)}"` : '';
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${design.colour}"${spacing}>${escapeHtml(design.words)}</span>`,
      font: `${PANGO_STYLE[design.style]} ${design.size}px`,
      fontfile: join(FONT_DIR, design.style, `Inter_${design.style}.ttf`),
      align: 'centre',
      rgba: true,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Draws a text logo: background, optional badge and icon (SVG), then the words composited in place. */
export async function drawTextLogo(design: TextLogoDesign): Promise<Buffer> {
  const width = design.width ?? 800;
  const height = design.height ?? 400;
  const words = await wordsImage(design);
  const iconSide = design.icon ? Math.round(Math.max(words.height, design.size) * 1.2) : 0;
  const gap = design.icon ? Math.round(design.size * 0.4) : 0;
  const left = design.icon?.place === 'left';
  const groupWidth = left ? iconSide + gap + words.width : Math.max(iconSide, words.width);
  const groupHeight = left ? Math.max(iconSide, words.height) : iconSide + gap + words.height;
  const groupLeft = Math.round((width - groupWidth) / 2);
  const groupTop = Math.round((height - groupHeight) / 2);
  const wordsLeft = left ? groupLeft + iconSide + gap : Math.round((width - words.width) / 2);
  const wordsTop = left ? Math.round((height - words.height) / 2) : groupTop + (design.icon ? iconSide + gap : 0);
  const pad = Math.round(design.size * 0.5);
  const badge = design.badge
    ? `<rect x="${wordsLeft - pad}" y="${wordsTop - pad}" width="${words.width + 2 * pad}" height="${words.height + 2 * pad}" rx="${pad}" fill="${design.badge}"/>`
    : '';
  const icon = design.icon
    ? `<svg x="${groupLeft + (left ? 0 : Math.round((groupWidth - iconSide) / 2))}" y="${left ? Math.round((height - iconSide) / 2) : groupTop}" width="${iconSide}" height="${iconSide}" viewBox="0 0 100 100">${ICONS[design.icon.shape](design.icon.colour)}</svg>`
    : '';
  const background = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${design.background}"/>${badge}${icon}</svg>`,
  );
  return sharp(background)
    .composite([{ input: words.data, left: wordsLeft, top: wordsTop }])
    .png()
    .toBuffer();
}

const BLACK = '#111111';
const WHITE = '#ffffff';

/** Logos that read a brand of the list; `brand` is the name the check must report. */
export const BRAND_DESIGNS: ReadonlyArray<{ name: string; brand: string; design: TextLogoDesign }> = [
  { name: 'google-bold', brand: 'Google', design: { words: 'Google', style: '700Bold', size: 120, colour: '#4285f4', background: WHITE } },
  {
    name: 'google-letter-spaced',
    brand: 'Google',
    design: { words: 'G O O G L E', style: '500Medium', size: 72, colour: '#5f6368', background: WHITE, letterSpacing: 6 },
  },
  {
    name: 'google-split-lowercase',
    brand: 'Google',
    design: { words: 'goo gle', style: '400Regular', size: 96, colour: BLACK, background: '#f1f3f4' },
  },
  {
    name: 'coca-cola-white-on-red',
    brand: 'Coca-Cola',
    design: { words: 'Coca-Cola', style: '700Bold_Italic', size: 110, colour: WHITE, background: '#e41e2b' },
  },
  {
    name: 'microsoft-squares',
    brand: 'Microsoft',
    design: {
      words: 'Microsoft',
      style: '600SemiBold',
      size: 84,
      colour: '#737373',
      background: WHITE,
      icon: { shape: 'squares', colour: '', place: 'left' },
    },
  },
  {
    name: 'amazon-swoosh-above',
    brand: 'Amazon',
    design: {
      words: 'amazon',
      style: '800ExtraBold',
      size: 110,
      colour: BLACK,
      background: WHITE,
      icon: { shape: 'swoosh', colour: '#ff9900', place: 'above' },
    },
  },
  {
    name: 'netflix-red-on-black',
    brand: 'Netflix',
    design: { words: 'NETFLIX', style: '900Black', size: 120, colour: '#e50914', background: '#141414' },
  },
  {
    name: 'starbucks-two-lines',
    brand: 'Starbucks',
    design: { words: 'STARBUCKS\nCOFFEE', style: '700Bold', size: 80, colour: WHITE, background: '#00704a', width: 700, height: 500 },
  },
  {
    name: 'spotify-icon-left',
    brand: 'Spotify',
    design: {
      words: 'Spotify',
      style: '700Bold',
      size: 100,
      colour: BLACK,
      background: WHITE,
      icon: { shape: 'waves', colour: '#1db954', place: 'left' },
    },
  },
  {
    name: 'adidas-black-weight',
    brand: 'Adidas',
    design: { words: 'adidas', style: '900Black', size: 130, colour: BLACK, background: '#fafafa' },
  },
  {
    name: 'samsung-badge',
    brand: 'Samsung',
    design: { words: 'SAMSUNG', style: '800ExtraBold', size: 90, colour: WHITE, background: WHITE, badge: '#1428a0' },
  },
  {
    name: 'youtube-play-icon',
    brand: 'YouTube',
    design: {
      words: 'YouTube',
      style: '600SemiBold',
      size: 96,
      colour: '#282828',
      background: WHITE,
      icon: { shape: 'play', colour: '#ff0000', place: 'left' },
    },
  },
  {
    name: 'mcdonalds-yellow-on-red',
    brand: "McDonald's",
    design: { words: "McDonald's", style: '800ExtraBold', size: 96, colour: '#ffc72c', background: '#da291c' },
  },
  {
    name: 'facebook-light-on-blue',
    brand: 'Facebook',
    design: { words: 'facebook', style: '700Bold', size: 110, colour: WHITE, background: '#1877f2' },
  },
  {
    name: 'pepsi-italic',
    brand: 'Pepsi',
    design: { words: 'PEPSI', style: '700Bold_Italic', size: 130, colour: '#004b93', background: WHITE },
  },
  {
    name: 'burger-king-stacked',
    brand: 'Burger King',
    design: { words: 'BURGER\nKING', style: '900Black', size: 100, colour: '#d62300', background: '#f5ebdc', width: 600, height: 500 },
  },
  {
    name: 'instagram-thin',
    brand: 'Instagram',
    design: { words: 'Instagram', style: '300Light', size: 100, colour: '#262626', background: WHITE },
  },
  {
    name: 'tesla-spaced-on-black',
    brand: 'Tesla',
    design: { words: 'T E S L A', style: '200ExtraLight', size: 90, colour: '#e8e8e8', background: '#171a20', letterSpacing: 10 },
  },
  {
    name: 'paypal-mixed-case',
    brand: 'PayPal',
    design: { words: 'PayPal', style: '700Bold_Italic', size: 120, colour: '#003087', background: WHITE },
  },
  {
    name: 'nike-swoosh-left',
    brand: 'Nike',
    design: {
      words: 'NIKE',
      style: '900Black',
      size: 120,
      colour: BLACK,
      background: WHITE,
      icon: { shape: 'swoosh', colour: BLACK, place: 'left' },
    },
  },
  {
    name: 'linkedin-mixed-case-small',
    brand: 'LinkedIn',
    design: { words: 'LinkedIn', style: '600SemiBold', size: 56, colour: '#0a66c2', background: WHITE, width: 640, height: 640 },
  },
  { name: 'ibm-short', brand: 'IBM', design: { words: 'IBM', style: '900Black', size: 150, colour: '#0f62fe', background: WHITE } },
];

/** Logos whose words are no brand of the list, some close to one ("Metaphor", "Teslarian", "Apple Orchard"). */
export const PLAIN_DESIGNS: ReadonlyArray<{ name: string; design: TextLogoDesign }> = [
  {
    name: 'sunrise-bakery',
    design: {
      words: 'Sunrise Bakery',
      style: '700Bold',
      size: 90,
      colour: '#b45309',
      background: '#fff7ed',
      icon: { shape: 'circle', colour: '#f59e0b', place: 'above' },
      width: 800,
      height: 500,
    },
  },
  {
    name: 'blue-lagoon-studio',
    design: { words: 'Blue Lagoon Studio', style: '500Medium', size: 72, colour: WHITE, background: '#0e7490' },
  },
  { name: 'metaphor', design: { words: 'Metaphor', style: '800ExtraBold', size: 120, colour: BLACK, background: WHITE } },
  {
    name: 'teslarian-books',
    design: { words: 'Teslarian Books', style: '400Regular', size: 84, colour: '#1f2937', background: '#f3f4f6' },
  },
  {
    name: 'apple-orchard-farm',
    design: {
      words: 'Apple Orchard Farm',
      style: '600SemiBold',
      size: 72,
      colour: '#166534',
      background: WHITE,
      icon: { shape: 'leaf', colour: '#16a34a', place: 'left' },
      width: 1000,
    },
  },
  {
    name: 'northwind-letter-spaced',
    design: { words: 'N O R T H W I N D', style: '300Light', size: 64, colour: '#334155', background: WHITE, letterSpacing: 8, width: 900 },
  },
  {
    name: 'pixel-forge-on-black',
    design: { words: 'Pixel Forge', style: '900Black', size: 110, colour: '#a3e635', background: '#18181b' },
  },
  {
    name: 'green-leaf-cafe',
    design: { words: 'Green Leaf Café', style: '700Bold_Italic', size: 88, colour: '#15803d', background: '#f0fdf4' },
  },
  {
    name: 'summit-outdoors-mountain',
    design: {
      words: 'SUMMIT\nOUTDOORS',
      style: '800ExtraBold',
      size: 84,
      colour: '#1e3a8a',
      background: WHITE,
      icon: { shape: 'mountain', colour: '#1e3a8a', place: 'above' },
      width: 700,
      height: 600,
    },
  },
  {
    name: 'golden-goggles-badge',
    design: { words: 'Golden Goggles', style: '700Bold', size: 72, colour: WHITE, background: WHITE, badge: '#7c3aed' },
  },
  {
    name: 'delta-dental-lab',
    design: {
      words: 'Delta Dental Lab',
      style: '600SemiBold',
      size: 80,
      colour: '#0f766e',
      background: WHITE,
      icon: { shape: 'ring', colour: '#14b8a6', place: 'left' },
      width: 1000,
    },
  },
  {
    name: 'bright-path-tutoring',
    design: { words: 'bright path tutoring', style: '400Regular', size: 76, colour: '#6d28d9', background: '#faf5ff' },
  },
  {
    name: 'volt-mixed-case',
    design: {
      words: 'VoLtWorks',
      style: '800ExtraBold',
      size: 110,
      colour: '#facc15',
      background: '#0c0a09',
      icon: { shape: 'bolt', colour: '#facc15', place: 'left' },
    },
  },
  { name: 'maple-and-oak', design: { words: 'Maple & Oak', style: '200ExtraLight', size: 110, colour: '#78350f', background: '#fefce8' } },
  {
    name: 'visa-travel-agency',
    design: { words: 'Visa Travel Agency', style: '500Medium', size: 72, colour: '#1d4ed8', background: WHITE, width: 1000 },
  },
  {
    name: 'quiet-fox-coffee',
    design: { words: 'QUIET FOX\ncoffee', style: '700Bold', size: 84, colour: '#292524', background: '#fafaf9', width: 700, height: 500 },
  },
];

export async function brandTextLogos(): Promise<BrandTextLogo[]> {
  return Promise.all(
    BRAND_DESIGNS.map(async ({ name, brand, design }) => ({ name: `${name}.png`, brand, png: await drawTextLogo(design) })),
  );
}

export async function plainTextLogos(): Promise<PlainTextLogo[]> {
  return Promise.all(PLAIN_DESIGNS.map(async ({ name, design }) => ({ name: `${name}.png`, png: await drawTextLogo(design) })));
}
