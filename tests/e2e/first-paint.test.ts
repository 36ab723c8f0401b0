/**
 * The pages' first paint, from their HTML alone (shells/web/index.html): the shell's layout with the question and
 * the footer (and on the voting page the screen's bottom bar), so that the largest element comes with the HTML whatever the logos' size, and on the results page
 * every logo the same size in upload order, so that nothing suggests a winner before the counts arrive.
 */
import type { Page } from 'playwright-core';
import { createPoll } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectNoHorizontalOverflow, holdScripts, shoot, useBrowser, VIEWPORTS, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const PROMPT = 'Which logo reads best on a shop sign?';
const FOOTER = `© ${new Date().getUTCFullYear()} LogoVote. All rights reserved. Terms of Use`;

/** Opens `path` with every script held back until the returned function is called: what the HTML alone paints. */
async function openWithoutScripts(viewport: ViewportName, path: string): Promise<{ page: Page; releaseScripts: () => void }> {
  const page = await browser.newPage(viewport, viewport === 'phone' ? { hasTouch: true, isMobile: true } : {});
  const releaseScripts = await holdScripts(page);
  await page.goto(`${gatewayUrl}${path}`, { waitUntil: 'commit' });
  await page.locator('#root footer').waitFor();
  return { page, releaseScripts };
}

const allImagesLoaded = () => Array.from(document.querySelectorAll<HTMLImageElement>('#root img')).every((img) => img.complete);

describe('the first paint of a poll page, before any script has run', () => {
  it.each(['phone', 'desktop'] as const)(
    'shows the question, the first logo and the footer on the voting page on a %s',
    async (viewport) => {
      const session = await createPoll({ feedbackPrompt: PROMPT });
      const { page, releaseScripts } = await openWithoutScripts(viewport, `/vote/${session.sessionId}`);
      await page.waitForFunction(allImagesLoaded);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(PROMPT);
      await expect(page.locator('#root main > img').getAttribute('src')).resolves.toBe(`/api/logos/${session.logos[0]!.filename}`);
      await expect(page.getByRole('status').innerText()).resolves.toBe('Loading voting session...');
      // The screen's bottom bar, its button taking taps once start.js has run (first-paint-vote.test.ts).
      const vote = page.getByRole('button', { name: 'Vote', exact: true });
      await expect(vote.getAttribute('data-first-paint-vote')).resolves.toBe(session.logos[0]!.id);
      await expect(vote.getAttribute('aria-disabled')).resolves.toBe('true');
      await expect(page.getByTestId('first-paint-unseen').innerText()).resolves.toBe('3 logos not seen yet');
      await expect(vote.getAttribute('aria-describedby')).resolves.toBe('first-paint-unseen');
      await expect(page.locator('#root footer').innerText()).resolves.toBe(FOOTER);
      await expect(page.getByRole('link', { name: 'Terms of Use' }).getAttribute('href')).resolves.toBe('/terms');
      // The footer is on screen: with a small logo it is the page's largest text.
      const footer = await page.locator('#root footer').boundingBox();
      expect(footer!.y + footer!.height).toBeLessThanOrEqual(VIEWPORTS[viewport].height + 1);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `first-paint-vote-${viewport}`);

      releaseScripts();
      await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
      await expect(page.getByTestId('feedback-banner').innerText()).resolves.toBe(PROMPT);
      await expect(page.locator('#root footer').count()).resolves.toBe(1);
    },
  );

  it.each(['phone', 'desktop'] as const)(
    'shows every logo the same size in upload order on the results page on a %s, then the ranked results',
    async (viewport) => {
      const session = await createPoll({ feedbackPrompt: PROMPT });
      const { page, releaseScripts } = await openWithoutScripts(viewport, `/results/${session.sessionId}`);
      await page.waitForFunction(allImagesLoaded);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(PROMPT);
      const logos = page.locator('#root main img');
      await expect(logos.evaluateAll((images) => images.map((img) => img.getAttribute('src')))).resolves.toEqual(
        session.logos.map((logo) => `/api/logos/${logo.filename}`),
      );
      const boxes = await logos.evaluateAll((images) => images.map((img) => img.getBoundingClientRect().width));
      expect(new Set(boxes).size).toBe(1);
      await expect(page.getByRole('status').innerText()).resolves.toBe('Loading results...');
      await expect(page.locator('#root footer').innerText()).resolves.toBe(FOOTER);
      await expectNoHorizontalOverflow(page);
      await expect(page.getByTestId('first-paint-vote-bar').count()).resolves.toBe(0);
      await shoot(page, `first-paint-results-${viewport}`);

      releaseScripts();
      await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
      await expect(page.locator('#root main > div > img').count()).resolves.toBe(0);
    },
  );

  it('writes a question with markup as text, and leaves one with quotes to the screen', async () => {
    const markup = 'Logo <b>A</b> & co, or <img src=x>?';
    const marked = await createPoll({ feedbackPrompt: markup });
    const first = await openWithoutScripts('phone', `/vote/${marked.sessionId}`);
    await expect(first.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(markup);
    await expect(first.page.locator('#root h1 *').count()).resolves.toBe(0);

    // JSON escapes the quotes: the HTML's first paint has no heading, the screen shows the question.
    const quoted = 'Which says "bakery" best?';
    const session = await createPoll({ feedbackPrompt: quoted });
    const second = await openWithoutScripts('phone', `/vote/${session.sessionId}`);
    await expect(second.page.locator('#root h1').count()).resolves.toBe(0);
    second.releaseScripts();
    await second.page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
    await expect(second.page.getByTestId('feedback-banner').innerText()).resolves.toBe(quoted);
  });

  it("shows the landing page's headline and the footer on /", async () => {
    const { page } = await openWithoutScripts('phone', '/');
    await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1);
    await expect(page.locator('#root footer').innerText()).resolves.toBe(FOOTER);
    await shoot(page, 'first-paint-landing-phone');
  });
});
