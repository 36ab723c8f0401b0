/**
 * Results on a phone and the creation page's small things, on a phone (390 x 844, touch) and a desktop: the results
 * page answers at the top and aligns its cards, reasons open in place, the creation page names a file that is
 * not an image, says an invalid address in plain words with a retry, keeps inputs clear of 'Get Votes!', every
 * dialog gives the focus back to its opener, and the results' not-found screen has a way home. Screenshots:
 * test-results/screenshots/small-things-*.png.
 */
import { mailCatcherClient } from '@logovote/devstack';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { screenshotPath } from '../support/browser';
import { apiVoter, createPoll, randomFingerprint, visitPollScreen, voteThroughApi } from '../support/polls';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectFocusOn,
  expectNoHorizontalOverflow,
  expectToast,
  fixture,
  shoot,
  useBrowser,
  visit,
  type FilePayload,
  type ViewportName,
} from '../support/web';

const browser = useBrowser();
const { mailApiUrl } = testStack();

/** A common phone: 390 x 844 with a touch screen. */
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const VIEWPORTS = ['phone', 'desktop'] as const;

/** bypassCSP only so expectAccessible() can inject axe-core. */
const openDevice = (viewport: ViewportName) => browser.newPage(viewport, { bypassCSP: true, ...(viewport === 'phone' ? PHONE : {}) });

const PROMPT = 'Which logo should be on our new delivery vans?';
const NAMES = ['Ring mark', 'Triangle', 'Diamond badge', 'Wave'];

/** The box of `locator` in the page's coordinates at the current scroll position. */
async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('no box: the element is not shown');
  return found;
}

/** A poll whose leader's 'Winner' badge has a qualifier beside it, with reasons for the leader. */
async function pollWithWinner(reasons: number) {
  // One shared network: the test's voters all come from one address, and need no proof of work.
  const session = await createPoll({ feedbackPrompt: PROMPT, logoNames: NAMES, sharedNetwork: true });
  const [first, second] = session.logos;
  for (let n = 0; n < reasons; n++) {
    const voter = await apiVoter(session.sessionId);
    const fingerprint = randomFingerprint();
    expect((await voter.vote(first!.id, fingerprint)).status).toBe(200);
    const given = await voter.giveReason(`Reason number ${n}: the ring reads well from across the street, even small`, fingerprint);
    expect(given.status).toBe(200);
  }
  for (let n = reasons; n < 4; n++) await voteThroughApi(session.sessionId, first!.id);
  await voteThroughApi(session.sessionId, second!.id);
  return session;
}

describe('the results page on a phone', () => {
  it.each(VIEWPORTS)(
    'answers at the top, aligns the cards whatever their badges, and opens reasons in place, on a %s',
    async (viewport) => {
      const session = await pollWithWinner(5);
      const page = await openDevice(viewport);
      await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
      await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
      const cards = page.getByTestId('result-card');
      const leader = cards.first();
      await leader.getByTestId('reason').first().waitFor({ timeout: 15_000 });

      // The spec's texts stay.
      await expect(page.getByRole('heading', { name: 'Voting Results' }).count()).resolves.toBe(1);
      await expect(leader.getByTestId('winner-badge').innerText()).resolves.toContain('Winner');

      // Without scrolling: the verdict and the whole leading logo are on screen.
      const height = page.viewportSize()!.height;
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const verdict = await box(page.getByTestId('confidence-verdict'));
      expect(verdict.y + verdict.height).toBeLessThanOrEqual(height);
      const leaderImage = await box(leader.getByRole('img', { name: /Ring mark/ }));
      expect(leaderImage.y + leaderImage.height).toBeLessThanOrEqual(height);

      // Cards side by side start their images at the same height, badge or not.
      const tops = await cards.evaluateAll((items) =>
        items.map((item) => {
          const image = item.querySelector('img')!.getBoundingClientRect();
          return { left: Math.round(image.left), top: Math.round(image.top) };
        }),
      );
      expect(tops[1]!.left).toBeGreaterThan(tops[0]!.left);
      expect(tops[1]!.top).toBe(tops[0]!.top);
      expect(tops[3]!.top).toBe(tops[2]!.top);

      // Three reasons, each whole or cut at a line's end; no box scrolls inside the page.
      const reasons = leader.getByTestId('reasons');
      await expect(reasons.getByTestId('reason').count()).resolves.toBe(3);
      const scrolling = await page.evaluate(
        () =>
          [...document.querySelectorAll('[data-remote="results"] *')].filter((element) => {
            const style = getComputedStyle(element);
            return /(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight;
          }).length,
      );
      expect(scrolling).toBe(0);
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      // What the visitor sees first, without scrolling.
      await page.screenshot({ path: screenshotPath(`small-things-results-top-${viewport}`) });
      await shoot(page, `small-things-results-${viewport}`);

      const showAll = reasons.getByRole('button', { name: 'Show all 5' });
      await expect(showAll.getAttribute('aria-expanded')).resolves.toBe('false');
      await showAll.click();
      await expect(reasons.getByTestId('reason').count()).resolves.toBe(5);
      await expect(reasons.getByRole('button', { name: /Show all/ }).count()).resolves.toBe(0);
      const lastReason = reasons.getByTestId('reason').last();
      await lastReason.scrollIntoViewIfNeeded();
      await expect(lastReason.innerText()).resolves.toContain('Reason number 0: the ring reads well from across the street, even small');
      await shoot(page, `small-things-results-reasons-open-${viewport}`);
    },
  );
});

describe('dialogs give the focus back to their opener', () => {
  it.each(VIEWPORTS)("on the results page: 'QR code', 'See it small' and 'Close voting', on a %s", async (viewport) => {
    const session = await createPoll({ logoNames: NAMES });
    const page = await openDevice(viewport);
    await visitPollScreen(page, `/results/${session.sessionId}#manage=${session.creatorToken}`, 'results');
    await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });

    const qr = page.getByRole('button', { name: 'QR code', exact: true });
    await qr.click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await expectFocusOn(qr);

    const small = page.getByTestId('see-it-small').first();
    await small.click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await expectFocusOn(small);

    const closeVoting = page.getByRole('button', { name: 'Close voting' });
    await closeVoting.click();
    await page.getByTestId('voting-state-dialog').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expectFocusOn(closeVoting);
    await closeVoting.click();
    await page.getByTestId('voting-state-dialog').getByRole('button', { name: 'Close voting' }).click();
    await expectToast(page, 'Voting closed');
    await expectFocusOn(page.getByRole('button', { name: 'Reopen voting' }));
  });
});

const picker = (page: Page) => page.locator('[data-testid="upload-area"] input[type="file"]');
const getVotes = (page: Page) => page.getByRole('button', { name: 'Get Votes!' });
const dialog = (page: Page) => page.locator('[data-testid="creation-dialog"]');
const atStep = (page: Page, step: 'plan' | 'email' | 'sent') =>
  page.waitForSelector(`[data-testid="creation-dialog"][data-step="${step}"]`, { timeout: 20_000 });

/** A text file named like a PNG. */
const fakePng = (): FilePayload => ({
  name: 'notes-not-a-logo.png',
  mimeType: 'image/png',
  buffer: Buffer.from('Meeting notes, not a logo\n'),
});

/** An SVG the browser draws but the server refuses (it carries a script). */
const scriptedSvg = (): FilePayload => ({
  name: 'scripted-logo.svg',
  mimeType: 'image/svg+xml',
  buffer: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><circle cx="32" cy="32" r="30" fill="#2563eb"/></svg>',
  ),
});

describe('the creation page', () => {
  it.each(VIEWPORTS)('names a file that is not an image in the picker and sends nothing, on a %s', async (viewport) => {
    const page = await openDevice(viewport);
    const creations: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sessions') creations.push(request.url());
    });
    await visit(page, '/', '[data-remote="create"]');
    await picker(page).setInputFiles([fixture('logo-ring.png'), fakePng()]);
    const alert = page.getByTestId('unreadable-files');
    await expect(alert.innerText()).resolves.toContain('"notes-not-a-logo.png" is not a readable image, so it was not added.');
    await expect(alert.getAttribute('role')).resolves.toBe('alert');
    await expect(page.getByTestId('logo-preview').count()).resolves.toBe(1);
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    await shoot(page, `small-things-unreadable-file-${viewport}`);
    expect(creations).toEqual([]);

    // The next pick replaces the message.
    await picker(page).setInputFiles([fixture('logo-wave.svg')]);
    await alert.waitFor({ state: 'detached' });
    await page.getByTestId('logo-preview').nth(1).waitFor();
  });

  it('says which file the server refused', async () => {
    const page = await openDevice('desktop');
    await visit(page, '/', '[data-remote="create"]');
    await picker(page).setInputFiles([fixture('logo-ring.png'), scriptedSvg()]);
    await page.getByTestId('logo-preview').nth(1).waitFor();
    await getVotes(page).click();
    const shown = await expectToast(page, 'Error');
    await expect(shown.innerText()).resolves.toContain('"scripted-logo.svg"');
    await shoot(page, 'small-things-server-refused-file-desktop');
  });

  it.each(VIEWPORTS)("keeps every field clear of 'Get Votes!' when it takes the focus, on a %s", async (viewport) => {
    const page = await openDevice(viewport);
    await visit(page, '/', '[data-remote="create"]');
    await picker(page).setInputFiles([fixture('logo-ring.png'), fixture('logo-wave.svg')]);
    await page.getByTestId('logo-preview').nth(1).waitFor();
    const fields = page.locator('[data-remote="create"] :is(input:not([type="file"]), textarea)');
    const count = await fields.count();
    expect(count).toBeGreaterThan(3);
    for (let index = 0; index < count; index++) {
      // From the top each time, so each field is scrolled to from above, as Tab and a tap do.
      await page.evaluate(() => window.scrollTo(0, 0));
      const field = fields.nth(index);
      await field.focus();
      const bar = await box(getVotes(page));
      const shown = await box(field);
      const overlaps = shown.y < bar.y + bar.height && shown.y + shown.height > bar.y;
      expect({ index, overlaps }).toEqual({ index, overlaps: false });
    }
    const question = page.getByLabel('Feedback question (optional)');
    await question.fill('Which one would you put on a van?');
    await page.screenshot({ path: screenshotPath(`small-things-question-clear-${viewport}`) });
  });

  it.each(VIEWPORTS)(
    'says an invalid address in plain words with a retry, e-mails the links with the logos, and gives the focus back to Get Votes! on closing, on a %s',
    async (viewport) => {
      const page = await openDevice(viewport);
      await visit(page, '/', '[data-remote="create"]');
      await picker(page).setInputFiles([fixture('logo-ring.png'), fixture('logo-wave.svg')]);
      await getVotes(page).click();
      await atStep(page, 'plan');
      await page.getByRole('button', { name: 'Continue' }).click();
      await atStep(page, 'email');

      // The input's own check: nothing is sent, the words are plain, the field keeps the address.
      const notified: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/notify')) notified.push(request.url());
      });
      const field = page.getByLabel('Email address');
      await field.fill('not-an-email');
      await page.getByRole('button', { name: 'Send Links' }).click();
      const invalid = page.getByTestId('email-invalid');
      await expect(invalid.innerText()).resolves.toBe(
        "That doesn't look like an e-mail address. Please check it (for example you@example.com) and try again.",
      );
      await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(dialog(page).getAttribute('data-step')).resolves.toBe('email');
      expect(notified).toEqual([]);
      await expectAccessible(page);
      await shoot(page, `small-things-email-invalid-${viewport}`);

      // An address the browser takes but the server refuses: the spec's sent step, in plain words, with 'Try again'.
      await field.fill('me@example');
      await page.getByRole('button', { name: 'Send Links' }).click();
      await atStep(page, 'sent');
      await expect(dialog(page).getByRole('heading', { name: 'Email Not Sent' }).count()).resolves.toBe(1);
      const error = await page.getByTestId('email-error').innerText();
      expect(error).not.toContain('email:');
      expect(error).toContain("doesn't look like an e-mail address");
      await expect(dialog(page).innerText()).resolves.toContain('There was an issue sending the email. Please copy the links below.');
      await shoot(page, `small-things-email-not-sent-${viewport}`);
      await page.getByRole('button', { name: 'Try again' }).click();
      await atStep(page, 'email');
      await expect(field.inputValue()).resolves.toBe('me@example');

      // Corrected: the links e-mail names the poll by its logos (no question) and shows each one small.
      const address = `small-things-${viewport}-${Date.now()}@example.com`;
      await field.fill(address);
      await page.getByRole('button', { name: 'Send Links' }).click();
      await atStep(page, 'sent');
      await expect(dialog(page).getByRole('heading', { name: 'Email Sent!' }).count()).resolves.toBe(1);
      const mail = await mailCatcherClient(mailApiUrl).waitFor((caught) => caught.to.includes(address));
      expect(mail.subject).toBe('Your LogoVote poll is ready: logo-ring, logo-wave');
      expect(mail.attachments.map((attachment) => attachment.contentType)).toEqual(['image/png', 'image/png']);

      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'detached' });
      await expectFocusOn(getVotes(page));
    },
  );
});

describe('not-found screens', () => {
  it.each(VIEWPORTS)("'Results not found' and the 404 page lead home, on a %s", async (viewport) => {
    const page = await openDevice(viewport);
    await visitPollScreen(page, '/results/no-such-poll-here', 'results');
    await page.waitForSelector('[data-remote="results"][data-phase="not-found"]', { timeout: 15_000 });
    const card = page.getByTestId('results-not-found');
    await expect(card.innerText()).resolves.toContain('Results not found');
    await expect(card.innerText()).resolves.toContain("The voting session you're looking for doesn't exist.");
    await expectAccessible(page);
    await shoot(page, `small-things-results-not-found-${viewport}`);
    await card.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForSelector('[data-remote="create"]', { timeout: 15_000 });

    await visit(page, '/no/such/page');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' }).count()).resolves.toBe(1);
    await shoot(page, `small-things-404-${viewport}`);
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForSelector('[data-remote="create"]', { timeout: 15_000 });
  });
});
