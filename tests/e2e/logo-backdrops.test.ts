/**
 * Every logo is shown on a backdrop that gives it contrast (docs/logo-backdrops.md), on every screen that shows
 * logos, measured from the rendered pixels.
 *
 * The test logos are 200×200 PNGs drawn here: a disc of radius 60 (0.3 of the side) in the middle, in white, black
 * or a saturated colour, on a transparent ground or on an opaque one. On every screen the image is found by its
 * element, the screen is captured over it, and two sets of device pixels are compared:
 * - the mark: the pixels within 0.6 of the disc's radius of its centre (well inside its anti-aliased edge);
 * - around it: the pixels between 1.15 and 1.35 of the disc's radius (the backdrop for a transparent logo, the
 *   logo's own ground for an opaque one).
 * The figure is the WCAG 2.1 contrast ratio between the median relative luminance of each set; it must be at
 * least 3:1 (WCAG 1.4.11, non-text contrast).
 */
import type { CreatedSessionWithCreatorToken, SessionView } from '@logovote/contracts';
import { contrastRatio, NON_TEXT_CONTRAST, relativeLuminance } from '@logovote/contracts/logo-backdrop';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { adminCredentials } from '../support/admin';
import { screenshotPath } from '../support/browser';
import { visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  shoot,
  useBrowser,
  visit,
  type FilePayload,
  type ViewportName,
} from '../support/web';

const browser = useBrowser();

const SIDE = 200;
const RADIUS = 60;

type TestLogo = { name: string; mark: string; ground: string | null };

/** Transparent grounds: the backdrop must give them contrast. Opaque ones carry their own. */
const TRANSPARENT: TestLogo[] = [
  { name: 'white', mark: '#ffffff', ground: null },
  { name: 'black', mark: '#000000', ground: null },
  { name: 'red', mark: '#e11d48', ground: null },
  { name: 'yellow', mark: '#facc15', ground: null },
];
const OPAQUE: TestLogo[] = [
  { name: 'white-on-navy', mark: '#ffffff', ground: '#1e3a8a' },
  { name: 'black-on-yellow', mark: '#000000', ground: '#facc15' },
  { name: 'red-on-white', mark: '#e11d48', ground: '#ffffff' },
];

async function drawLogo({ name, mark, ground }: TestLogo): Promise<FilePayload> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${SIDE}" height="${SIDE}">${
    ground ? `<rect width="${SIDE}" height="${SIDE}" fill="${ground}"/>` : ''
  }<circle cx="${SIDE / 2}" cy="${SIDE / 2}" r="${RADIUS}" fill="${mark}"/></svg>`;
  return { name: `${name}.png`, mimeType: 'image/png', buffer: await sharp(Buffer.from(svg)).png().toBuffer() };
}

async function createPollOf(files: FilePayload[]): Promise<CreatedSessionWithCreatorToken> {
  const form = new FormData();
  for (const file of files) form.append('logos', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  form.append('feedbackPrompt', 'Which one shows best?');
  const res = await fetch(`${testStack().gatewayUrl}/api/sessions`, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`creating a poll: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedSessionWithCreatorToken;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * The contrast between a logo's mark and what is around it, in a PNG whose square (left, top, side) is the
 * logo's 200×200 drawing as shown (in the PNG's pixels).
 */
async function markContrast(png: Buffer, square: { left: number; top: number; side: number }): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const scale = square.side / SIDE;
  const cx = square.left + square.side / 2;
  const cy = square.top + square.side / 2;
  const radius = RADIUS * scale;
  const mark: number[] = [];
  const around: number[] = [];
  for (let y = Math.max(0, Math.floor(cy - 1.35 * radius)); y < Math.min(info.height, Math.ceil(cy + 1.35 * radius)); y++) {
    for (let x = Math.max(0, Math.floor(cx - 1.35 * radius)); x < Math.min(info.width, Math.ceil(cx + 1.35 * radius)); x++) {
      const distance = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) / radius;
      const at = (y * info.width + x) * info.channels;
      const luminance = relativeLuminance(data[at]!, data[at + 1]!, data[at + 2]!);
      if (distance <= 0.6) mark.push(luminance);
      else if (distance >= 1.15 && distance <= 1.35) around.push(luminance);
    }
  }
  expect(mark.length).toBeGreaterThan(0);
  expect(around.length).toBeGreaterThan(0);
  return contrastRatio(median(mark), median(around));
}

/** The contrast of a logo's <img> as the page shows it (an object-contain image of a square logo). */
async function imageContrast(page: Page, image: Locator): Promise<number> {
  // In the middle of the viewport: clear of the sticky bars at the top and bottom of the screen.
  await image.evaluate((node) => node.scrollIntoView({ block: 'center', inline: 'center' }));
  await page.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0, await image.elementHandle());
  const box = await image.boundingBox();
  if (!box) throw new Error('the logo is not shown');
  const side = Math.min(box.width, box.height);
  const clip = { x: box.x + (box.width - side) / 2, y: box.y + (box.height - side) / 2, width: side, height: side };
  const png = await page.screenshot({ clip });
  const size = (await sharp(png).metadata()).width!;
  return markContrast(png, { left: 0, top: 0, side: size });
}

/** Every figure measured, printed once at the end (docs/logo-backdrops.md keeps the table). */
const figures: { screen: string; viewport: string; logo: string; contrast: number }[] = [];

function record(screen: string, viewport: string, logo: string, contrast: number): void {
  figures.push({ screen, viewport, logo, contrast: Math.round(contrast * 10) / 10 });
  expect([screen, viewport, logo, contrast >= NON_TEXT_CONTRAST]).toEqual([screen, viewport, logo, true]);
}

afterAll(() => {
  if (figures.length)
    process.stdout.write(`${figures.map((f) => `${f.screen}\t${f.viewport}\t${f.logo}\t${f.contrast.toFixed(1)}:1`).join('\n')}\n`);
});

const LOGOS = [...TRANSPARENT, ...OPAQUE];
let files: Map<string, FilePayload>;
let transparentPoll: CreatedSessionWithCreatorToken;
let opaquePoll: CreatedSessionWithCreatorToken;

beforeAll(async () => {
  files = new Map(await Promise.all(LOGOS.map(async (logo) => [logo.name, await drawLogo(logo)] as const)));
  transparentPoll = await createPollOf(TRANSPARENT.map((logo) => files.get(logo.name)!));
  opaquePoll = await createPollOf(OPAQUE.map((logo) => files.get(logo.name)!));
});

const polls = () => [transparentPoll, opaquePoll];
const logoNameOf = (logo: SessionView['logos'][number]) => logo.name;

describe('backdrops that show every logo', () => {
  it('gives each logo its backdrop from its pixels: light logos on dark, dark and opaque ones on light', () => {
    expect(transparentPoll.logos.map((logo) => [logo.name, logo.backdrop])).toEqual([
      ['white', 'dark'],
      ['black', 'light'],
      ['red', 'light'],
      ['yellow', 'dark'],
    ]);
    expect(opaquePoll.logos.map((logo) => logo.backdrop)).toEqual(['light', 'light', 'light']);
  });

  describe.each(['phone', 'desktop'] as const)('on a %s', (viewport: ViewportName) => {
    it('shows every chosen logo with contrast in the creation preview', async () => {
      const page = await browser.newPage(viewport);
      await visit(page, '/', '[data-testid="upload-area"]');
      for (const set of [TRANSPARENT, OPAQUE]) {
        await page.locator('[data-testid="upload-area"] input[type="file"]').setInputFiles(set.map((logo) => files.get(logo.name)!));
        const previews = page.getByTestId('logo-preview');
        await page.waitForFunction((count) => document.querySelectorAll('[data-testid="logo-preview"]').length === count, set.length);
        // The backdrop is measured in the browser once the image has decoded.
        await page.waitForFunction(
          (expected) =>
            [...document.querySelectorAll('[data-testid="logo-preview"] [data-slot="logo-backdrop"]')]
              .map((node) => node.getAttribute('data-backdrop'))
              .join() === expected,
          // The browser's rule on its canvas agrees with the server's at upload.
          (set === TRANSPARENT ? transparentPoll : opaquePoll).logos.map((logo) => logo.backdrop).join(),
        );
        for (const [index, logo] of set.entries()) {
          record('creation preview', viewport, logo.name, await imageContrast(page, previews.nth(index).locator('img')));
        }
        await shoot(page, `logo-backdrops-create-${set === TRANSPARENT ? 'transparent' : 'opaque'}-${viewport}`);
        for (let remaining = set.length; remaining > 0; remaining--) {
          await previews
            .first()
            .getByRole('button', { name: /^Remove / })
            .click();
        }
      }
    });

    it('shows every logo with contrast on the voting card and the results cards, and in See it small', async () => {
      for (const poll of polls()) {
        const kind = poll === transparentPoll ? 'transparent' : 'opaque';
        const page = await browser.newPage(viewport, { bypassCSP: true });
        await visitPollScreen(page, `/vote/${poll.sessionId}`, 'vote');
        await page.waitForSelector('[data-testid="current-logo"] img');
        for (const [index, logo] of poll.logos.entries()) {
          await page.getByRole('button', { name: `Show logo ${index + 1} of ${poll.logos.length}` }).click();
          const card = page.locator(`[data-testid="current-logo"][data-logo-id="${logo.id}"]`);
          await expect(card.locator('[data-slot="logo-backdrop"]').getAttribute('data-backdrop')).resolves.toBe(logo.backdrop);
          record('voting card', viewport, logoNameOf(logo), await imageContrast(page, card.locator('img')));
          if (index === 0) await shoot(page, `logo-backdrops-vote-${kind}-${viewport}`);
        }
        await expectAccessible(page);
        await expectNoHorizontalOverflow(page);

        await visitPollScreen(page, `/results/${poll.sessionId}`, 'results');
        await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
        for (const logo of poll.logos) {
          const card = page.locator(`[data-testid="result-card"][data-logo-id="${logo.id}"]`);
          record('results card', viewport, logoNameOf(logo), await imageContrast(page, card.locator('[data-slot="logo-backdrop"] img')));
        }
        await shoot(page, `logo-backdrops-results-${kind}-${viewport}`);
        await expectAccessible(page);
        await expectNoHorizontalOverflow(page);

        for (const logo of poll.logos) {
          const card = page.locator(`[data-testid="result-card"][data-logo-id="${logo.id}"]`);
          await card.getByTestId('see-it-small').click();
          await page.waitForSelector('[data-testid="logo-in-context"][data-bitmaps="drawn"]', { timeout: 15_000 });
          const swatch = page.locator('[data-testid="favicon-swatch"][data-logo-backdrop="true"]');
          await expect(swatch.getAttribute('data-theme')).resolves.toBe(logo.backdrop);
          const favicon = swatch.locator('[data-testid="favicon"][data-size="32"][data-density="sharp"]');
          record('See it small (32 px)', viewport, logoNameOf(logo), await imageContrast(page, favicon));
          if (logo === poll.logos[0]) await shoot(page, `logo-backdrops-see-it-small-${kind}-${viewport}`);
          await page.keyboard.press('Escape');
          await page.getByTestId('logo-in-context').waitFor({ state: 'detached' });
        }
      }
    });

    it("shows every logo with contrast in the poll pages' first paint, from their HTML alone", async () => {
      for (const poll of polls()) {
        const kind = poll === transparentPoll ? 'transparent' : 'opaque';
        for (const path of [`/vote/${poll.sessionId}`, `/results/${poll.sessionId}`]) {
          const page = await browser.newPage(viewport);
          // Every script held back: what the gateway's HTML paints (shells/web/index.html).
          await page.route(/\.js$/, () => new Promise<never>(() => undefined));
          await page.goto(`${testStack().gatewayUrl}${path}`, { waitUntil: 'commit' });
          await page.locator('#root footer').waitFor();
          const images = page.locator('#root main img');
          await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('#root main img')].every((img) => img.complete));
          const shown = await images.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('src')));
          expect(shown.length).toBeGreaterThan(0);
          for (const [index, src] of shown.entries()) {
            const logo = poll.logos.find((candidate) => src === `/api/logos/${candidate.filename}`)!;
            await expect(images.nth(index).getAttribute('class')).resolves.toBe(`logovote-backdrop-${logo.backdrop}`);
            record(`first paint ${path.split('/')[1]}`, viewport, logoNameOf(logo), await imageContrast(page, images.nth(index)));
          }
          await shoot(page, `logo-backdrops-first-paint-${path.split('/')[1]}-${kind}-${viewport}`);
          await page.close();
        }
      }
    });

    it('shows every logo with contrast in the admin thumbnails and details', async () => {
      const page = await browser.newPage(viewport, { httpCredentials: adminCredentials(), bypassCSP: true });
      for (const poll of polls()) {
        await visit(page, '/admin/polls', `[data-poll-id="${poll.sessionId}"]`);
        const card = page.locator(`[data-poll-id="${poll.sessionId}"]`);
        for (const [index, logo] of poll.logos.entries()) {
          const thumbnail = card.getByTestId('poll-thumbnail').nth(index);
          record('admin thumbnail', viewport, logoNameOf(logo), await imageContrast(page, thumbnail.locator('img')));
        }
        await card.getByRole('button').first().click();
        const details = page.getByTestId('detail-logo');
        await details.first().waitFor();
        for (const [index, logo] of poll.logos.entries()) {
          record('admin details', viewport, logoNameOf(logo), await imageContrast(page, details.nth(index).locator('img')));
        }
        await shoot(page, `logo-backdrops-admin-${poll === transparentPoll ? 'transparent' : 'opaque'}-${viewport}`);
      }
    });
  });

  it('shows every logo with contrast in the link-preview image', async () => {
    for (const poll of polls()) {
      const res = await fetch(`${testStack().gatewayUrl}/api/sessions/${poll.sessionId}/preview.png`);
      expect(res.status).toBe(200);
      const png = Buffer.from(await res.arrayBuffer());
      const kind = poll === transparentPoll ? 'transparent' : 'opaque';
      await sharp(png).toFile(screenshotPath(`logo-backdrops-link-preview-${kind}`));
      // The layout of renderLinkPreview (packages/media-pipeline/src/link-preview.ts): 1200×630, logos in a row of
      // square cards from y = 216 to 48 px above the bottom, 24 px apart, each logo inset by 8% of its card.
      const count = poll.logos.length;
      const side = Math.floor(Math.min(630 - 216 - 48, (1200 - 2 * 48 - (count - 1) * 24) / count));
      const rowLeft = Math.round((1200 - (count * side + (count - 1) * 24)) / 2);
      const rowTop = 216 + Math.round((630 - 216 - 48 - side) / 2);
      const padding = Math.round(side * 0.08);
      for (const [index, logo] of poll.logos.entries()) {
        const square = { left: rowLeft + index * (side + 24) + padding, top: rowTop + padding, side: side - 2 * padding };
        record('link preview', '1200×630', logoNameOf(logo), await markContrast(png, square));
      }
    }
  });

  it.each(['phone', 'desktop'] as const)(
    "lets a voter switch every logo's backdrop to checkerboard or dark, remembered after a reload, on a %s",
    async (viewport) => {
      const page = await browser.newPage(viewport, { bypassCSP: true });
      const backdrop = () => page.locator('[data-testid="current-logo"] [data-slot="logo-backdrop"]').getAttribute('data-backdrop');
      await visitPollScreen(page, `/vote/${transparentPoll.sessionId}`, 'vote');
      await page.waitForSelector('[data-testid="current-logo"] img');
      // The first logo is white: its own backdrop is dark.
      await expect(backdrop()).resolves.toBe('dark');

      const toggle = page.getByRole('group', { name: 'Logo background' });
      await toggle.getByText('Checkerboard').click();
      await expect(backdrop()).resolves.toBe('checkerboard');
      await shoot(page, `logo-backdrops-checkerboard-${viewport}`);
      await page.reload();
      await page.waitForSelector('[data-testid="current-logo"] img');
      await expect(backdrop()).resolves.toBe('checkerboard');
      await expect(toggle.getByRole('radio', { name: 'Checkerboard' }).isChecked()).resolves.toBe(true);

      // The keyboard: the arrow keys move the choice within the group.
      await toggle.getByRole('radio', { name: 'Checkerboard' }).focus();
      await page.keyboard.press('ArrowLeft');
      await expect(toggle.getByRole('radio', { name: 'Dark' }).isChecked()).resolves.toBe(true);
      await page.getByRole('button', { name: 'Show logo 2 of 4' }).click();
      // The black logo, forced onto dark by the voter's choice.
      await expect(backdrop()).resolves.toBe('dark');

      // The results page follows the same choice.
      await visitPollScreen(page, `/results/${transparentPoll.sessionId}`, 'results');
      await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
      await expect(
        page
          .locator('[data-testid="result-card"] [data-slot="logo-backdrop"]')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-backdrop'))),
      ).resolves.toEqual(['dark', 'dark', 'dark', 'dark']);
      await page.getByRole('group', { name: 'Logo background' }).getByText('Auto').click();
      await expect(
        page
          .locator('[data-testid="result-card"] [data-slot="logo-backdrop"]')
          .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-backdrop'))),
      ).resolves.toEqual(transparentPoll.logos.map((logo) => logo.backdrop));
      await shoot(page, `logo-backdrops-results-auto-${viewport}`);
    },
  );
});
