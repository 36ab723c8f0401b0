import { dirname, join } from 'node:path';
import {
  BACKDROP_COLOURS,
  PREVIEW_IMAGE_HEIGHT as HEIGHT,
  PREVIEW_IMAGE_WIDTH as WIDTH,
  MAX_LOGO_PIXELS,
  type LogoBackdrop,
} from '@logovote/contracts';
import escapeHtml from 'escape-html';
import sharp from 'sharp';
import { SvgTooComplex } from './errors';
import { DEFAULT_SVG_SETTINGS, type SvgSettings } from './svg-costs';
import { checkSvg } from './svg-policy';
import { SvgRenderTimeout, svgRenderer } from './svg-render';

/** A stored logo as the preview draws it. */
export interface PreviewLogo {
  data: Buffer;
  isSvg: boolean;
  /** The card it is drawn on (docs/logo-backdrops.md). */
  backdrop: LogoBackdrop;
}

/**
 * The font the preview's words are set in, shipped inside an npm package: the service images have no system
 * fonts (Alpine), and Pango draws from this file whatever the machine has.
 */
const FONT_DIR = join(dirname(require.resolve('@expo-google-fonts/inter/package.json')), '700Bold');
const FONT_FILE = join(FONT_DIR, 'Inter_700Bold.ttf');

const MARGIN = 48;
const GAP = 24;
const BACKGROUND = '#f4f4f5';
/** The cards' outlines: a light card's on the light ground, a dark card's beside other dark ones. */
const CARD_STROKE: Record<LogoBackdrop, string> = { light: '#e4e4e7', dark: '#3f3f46' };
const TEXT = '#18181b';
const MUTED = '#71717a';
const BRAND_TOP = 36;
const TITLE_TOP = 84;
const TITLE_HEIGHT = 112;
const LOGOS_TOP = 216;
const LOGOS_HEIGHT = HEIGHT - LOGOS_TOP - MARGIN;
/** A longer question is cut with an ellipsis: a preview is read at a glance, and the page has the rest. */
const MAX_TITLE_CHARACTERS = 120;
export const DEFAULT_PREVIEW_TITLE = 'Which logo do you like best?';

type Placed = { input: Buffer; left: number; top: number };

/** Text set by Pango from the bundled font; `markup` is Pango markup, so the words themselves are escaped. */
async function renderText(
  words: string,
  options: { size: number; color: string; width: number; height?: number },
): Promise<sharp.OutputInfo & { data: Buffer }> {
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="${options.color}">${escapeHtml(words)}</span>`,
      font: `Inter Bold ${options.size}`,
      fontfile: FONT_FILE,
      width: options.width,
      ...(options.height ? { height: options.height } : {}),
      align: 'centre',
      wrap: 'word',
      rgba: true,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { ...info, data };
}

/** The question, as large as fits in two lines of the title box (smaller when it is longer). */
async function titleImage(question: string): Promise<Placed> {
  // Emoji have no glyph in the font (nor a colour font on the server): they would show as empty boxes.
  const drawable = question.replace(/[\p{Extended_Pictographic}\u{FE0F}\u{200D}]/gu, '').trim() || DEFAULT_PREVIEW_TITLE;
  const chars = [...drawable];
  const words =
    chars.length > MAX_TITLE_CHARACTERS
      ? `${chars
          .slice(0, MAX_TITLE_CHARACTERS - 1)
          .join('')
          .trimEnd()}…`
      : drawable;
  const width = WIDTH - 2 * MARGIN;
  let text = await renderText(words, { size: 48, color: TEXT, width });
  // Given a height too, Pango chooses the size that fills the box.
  if (text.height > TITLE_HEIGHT) text = await renderText(words, { size: 48, color: TEXT, width, height: TITLE_HEIGHT });
  return {
    input: text.data,
    left: Math.max(0, Math.round((WIDTH - text.width) / 2)),
    top: TITLE_TOP + Math.max(0, Math.round((TITLE_HEIGHT - text.height) / 2)),
  };
}

async function brandImage(): Promise<Placed> {
  const text = await renderText('LogoVote', { size: 26, color: MUTED, width: WIDTH - 2 * MARGIN });
  return { input: text.data, left: Math.round((WIDTH - text.width) / 2), top: BRAND_TOP };
}

/**
 * A logo fitted into a square of `side` pixels, on a transparent ground. An SVG is checked against the cost
 * limits again (it may have been stored under other limits) and drawn in the renderer's child process, under
 * its time budget, at the size it is fitted to. The links e-mail's thumbnails are made the same way.
 */
export async function fittedLogo(
  logo: Pick<PreviewLogo, 'data' | 'isSvg'>,
  side: number,
  settings: SvgSettings = DEFAULT_SVG_SETTINGS,
): Promise<Buffer> {
  if (!logo.isSvg) {
    return sharp(logo.data, { limitInputPixels: MAX_LOGO_PIXELS })
      .resize(side, side, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer();
  }
  const { tooComplex } = checkSvg(logo.data.toString('utf8'), settings);
  if (tooComplex.length > 0) throw new SvgTooComplex('A logo of this poll', tooComplex);
  return svgRenderer(settings.SVG_RENDER_TIMEOUT_MS)
    .fit({ svg: logo.data, side })
    .catch((error: unknown) => {
      throw error instanceof SvgRenderTimeout ? new SvgTooComplex('A logo of this poll', [error.message]) : error;
    });
}

/**
 * The link preview of a poll (Open Graph's large card, 1200×630 PNG): the question (or a default line) above
 * its 1-4 logos, each fitted into a card of its backdrop's colour on a neutral ground. The cards are an SVG made of numbers and fixed colours only;
 * the question reaches Pango escaped, never an SVG document.
 */
export async function renderLinkPreview(
  logos: PreviewLogo[],
  question: string | undefined,
  svgSettings: SvgSettings = DEFAULT_SVG_SETTINGS,
): Promise<Buffer> {
  const count = Math.max(1, logos.length);
  const side = Math.floor(Math.min(LOGOS_HEIGHT, (WIDTH - 2 * MARGIN - (count - 1) * GAP) / count));
  const rowLeft = Math.round((WIDTH - (count * side + (count - 1) * GAP)) / 2);
  const rowTop = LOGOS_TOP + Math.round((LOGOS_HEIGHT - side) / 2);
  const cards = logos.map((logo, index) => ({ left: rowLeft + index * (side + GAP), top: rowTop, backdrop: logo.backdrop }));
  const padding = Math.round(side * 0.08);

  const ground = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="${BACKGROUND}"/>${cards
    .map(
      ({ left, top, backdrop }) =>
        `<rect x="${left}" y="${top}" width="${side}" height="${side}" rx="20" fill="${BACKDROP_COLOURS[backdrop]}" stroke="${CARD_STROKE[backdrop]}" stroke-width="2"/>`,
    )
    .join('')}</svg>`;
  const layers: Placed[] = await Promise.all([
    brandImage(),
    titleImage(question?.trim() || DEFAULT_PREVIEW_TITLE),
    ...logos.map(async (logo, index) => ({
      input: await fittedLogo(logo, side - 2 * padding, svgSettings),
      left: cards[index]!.left + padding,
      top: cards[index]!.top + padding,
    })),
  ]);
  return sharp(Buffer.from(ground)).composite(layers).png().toBuffer();
}
