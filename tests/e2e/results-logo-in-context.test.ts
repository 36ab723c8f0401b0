/**
 * Each result card's 'See it small' shows the logo at favicon sizes (16 and 32 CSS pixels, as
 * standard and 2x screens show them), on light and dark backgrounds, and in a browser-tab mock-up
 * (docs/logo-in-context.md).
 */
import type { CreatedSession } from '@logovote/contracts';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { screenshotPath } from '../support/browser';
import { createPoll, visitPollScreen } from '../support/polls';
import { expectAccessible, expectFocusOn, expectNoHorizontalOverflow, shoot, useBrowser, type ViewportName } from '../support/web';

const browser = useBrowser();

const PROMPT = 'Which logo should be our new favicon?';

async function openResults(session: Pick<CreatedSession, 'sessionId'>, viewport: ViewportName, options: BrowserContextOptions = {}) {
  const page = await browser.newPage(viewport, { bypassCSP: true, ...options });
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
  await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
  return { page, requested };
}

const dialog = (page: Page) => page.getByTestId('logo-in-context');

/** Opens a card's dialog and waits until its bitmaps are drawn. */
async function seeItSmall(page: Page, label: string): Promise<Locator> {
  await page.getByRole('button', { name: `See it small (${label})` }).click();
  await page.waitForSelector('[data-testid="logo-in-context"][data-bitmaps="drawn"]', { timeout: 15_000 });
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>('[data-testid="logo-in-context"] img')].every(
      (img) => img.complete && img.naturalWidth > 0,
    ),
  );
  return dialog(page);
}

type Shown = { size: number; density: string; theme: string; width: number; height: number; naturalWidth: number; alt: string };

/** Every favicon image of the dialog: its rendered size in CSS pixels and the size of its bitmap. */
const favicons = (page: Page): Promise<Shown[]> =>
  dialog(page)
    .getByTestId('favicon')
    .evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).map((img) => {
        const box = img.getBoundingClientRect();
        return {
          size: Number(img.dataset.size),
          density: img.dataset.density ?? '',
          theme: img.closest<HTMLElement>('[data-testid="favicon-swatch"]')?.dataset.theme ?? '',
          width: box.width,
          height: box.height,
          naturalWidth: img.naturalWidth,
          alt: img.alt,
        };
      }),
    );

describe("a result card's 'See it small'", () => {
  it.each(['phone', 'desktop'] as const)(
    'shows the logo at 16 and 32 px on light and dark and in a browser tab, on a %s',
    async (viewport) => {
      const session = await createPoll({ feedbackPrompt: PROMPT });
      const { page, requested } = await openResults(session, viewport);
      // The dialog's code is not part of the page's first load.
      expect(requested.filter((path) => path.includes('logo-in-context'))).toEqual([]);

      const button = page.getByRole('button', { name: 'See it small (Logo A)' });
      const shown = await seeItSmall(page, 'Logo A');
      expect(requested.filter((path) => /\/remotes\/results\/logo-in-context\.[0-9a-f]+\.js$/.test(path))).toHaveLength(1);
      await expect(shown.getByRole('heading', { name: 'Logo A, small' }).count()).resolves.toBe(1);
      await expect(page.getByRole('dialog', { name: 'Logo A, small' }).count()).resolves.toBe(1);

      // Real CSS pixel sizes; the standard bitmap has one pixel per CSS pixel, the sharp one two.
      const images = await favicons(page);
      expect(images).toHaveLength(8);
      for (const theme of ['light', 'dark']) {
        for (const density of ['standard', 'sharp']) {
          for (const size of [16, 32]) {
            const image = images.find((item) => item.theme === theme && item.density === density && item.size === size);
            expect(image).toMatchObject({ width: size, height: size, naturalWidth: density === 'standard' ? size : 2 * size });
            expect(image!.alt).toContain(`Logo A at ${size} px on a ${theme} background`);
          }
        }
      }

      // The tab mock-ups: light and dark, the logo as a 16 px icon, the poll's question as the tab's title.
      const tabs = shown.getByTestId('tab-mockup');
      await expect(tabs.evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.theme))).resolves.toEqual([
        'light',
        'dark',
      ]);
      for (const icon of await shown.getByTestId('tab-favicon').all()) {
        const box = (await icon.boundingBox())!;
        expect([box.width, box.height]).toEqual([16, 16]);
      }
      await expect(tabs.first().innerText()).resolves.toContain(PROMPT);

      // A dialog that fits the screen and the page, accessible, with focus inside and back on the button after.
      const { scrollWidth, clientWidth } = await shown.evaluate((element) => ({
        scrollWidth: element.scrollWidth,
        clientWidth: element.clientWidth,
      }));
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      const box = (await shown.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual((page.viewportSize()?.width ?? 0) + 0.5);
      await expectNoHorizontalOverflow(page);
      await expect(shown.evaluate((element) => element.contains(document.activeElement))).resolves.toBe(true);
      await expectAccessible(page);
      await page.screenshot({ path: screenshotPath(`results-see-it-small-${viewport}`) });

      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'detached' });
      await expectFocusOn(button);
    },
  );

  it('draws an SVG logo too, and a sharp screen gets the 2x bitmap in the tab', async () => {
    const session = await createPoll();
    // No votes: the cards keep the poll's order, and Logo D is the SVG (tests/fixtures/logo-wave.svg).
    const { page } = await openResults(session, 'phone', { deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    // A close look at a PNG logo's swatches on a 2x screen: the 1x bitmaps in blocks of 2×2 device pixels.
    const png = await seeItSmall(page, 'Logo A');
    for (const swatch of await png.getByTestId('favicon-swatch').all()) {
      await swatch.screenshot({ path: screenshotPath(`results-see-it-small-swatch-${await swatch.getAttribute('data-theme')}-2x`) });
    }
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });

    const shown = await seeItSmall(page, 'Logo D');
    await expect(shown.getByRole('heading', { name: 'Logo D, small' }).count()).resolves.toBe(1);
    const icon = shown.getByTestId('tab-favicon').first();
    const chosen = await icon.evaluate(async (img: HTMLImageElement) => {
      const sharp = img.srcset.split(' 1x, ')[1]?.replace(/ 2x$/, '') ?? '';
      const bitmap = new Image();
      bitmap.src = sharp;
      await bitmap.decode();
      return { isSharp: img.currentSrc === sharp, bitmapWidth: bitmap.naturalWidth };
    });
    expect(chosen).toEqual({ isSharp: true, bitmapWidth: 32 });
    // With no question, the tab's title is the product's name.
    await expect(shown.getByTestId('tab-mockup').first().innerText()).resolves.toContain('LogoVote');
    await shoot(page, 'results-see-it-small-svg-phone-2x');
    await page.getByRole('button', { name: 'Close' }).click();
    await dialog(page).waitFor({ state: 'detached' });
  });
});
