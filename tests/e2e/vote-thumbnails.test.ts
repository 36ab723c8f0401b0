import type { CreatedSession } from '@logovote/contracts';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { createPoll, visitPollScreen } from '../support/polls';
import {
  expectAccessible,
  expectFocusOn,
  expectNoHorizontalOverflow,
  recordAnalytics,
  shoot,
  useBrowser,
  waitForEvent,
  type ViewportName,
} from '../support/web';

const browser = useBrowser();

/** A phone as phones are: touch screen, mobile viewport. */
const TOUCH_PHONE = { hasTouch: true, isMobile: true };
const LOGO_NAMES = ['Ring mark', 'Triangle', 'Diamond', 'Wave'];

/** The CSP is bypassed only so expectAccessible() can inject axe-core (as in vote-page.test.ts). */
const openDevice = (viewport: ViewportName, options: BrowserContextOptions = {}) =>
  browser.newPage(viewport, { bypassCSP: true, ...(viewport === 'phone' ? TOUCH_PHONE : {}), ...options });

async function openVoting(session: CreatedSession, page: Page) {
  const events = recordAnalytics(page);
  await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
  await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
  return events;
}

const thumbnails = (page: Page) => page.getByRole('group', { name: 'All logos' }).getByRole('button');
const thumbnail = (page: Page, name: string) => page.getByRole('group', { name: 'All logos' }).getByRole('button', { name, exact: true });
const position = (page: Page) => page.getByTestId('position-text').innerText();
const unseenLine = (page: Page) => page.getByTestId('unseen-count');
const shownLogoId = (page: Page) => page.getByTestId('current-logo').getAttribute('data-logo-id');

async function expectShown(page: Page, logoId: string): Promise<void> {
  await page.waitForSelector(`[data-testid="current-logo"][data-logo-id="${logoId}"]`, { timeout: 5_000 });
}

/** Width and height in CSS pixels of each visible element. */
const sizes = (locator: Locator) =>
  locator.evaluateAll((elements) =>
    elements
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .map((element) => {
        const box = element.getBoundingClientRect();
        return { width: box.width, height: box.height };
      }),
  );

describe('every option seen: position, thumbnails and what is not seen yet', () => {
  it.each(['phone', 'desktop'] as const)(
    'shows "1 of 4", a thumbnail per logo named by its name, and how many logos are not seen yet, on a %s',
    async (viewport) => {
      const session = await createPoll({ logoNames: LOGO_NAMES, feedbackPrompt: 'Which one would you put on a shop sign?' });
      const ids = session.logos.map((logo) => logo.id);
      const page = await openDevice(viewport);
      const events = await openVoting(session, page);

      await expect(position(page)).resolves.toBe('1 of 4');
      await expect(page.getByTestId('logo-position').isVisible()).resolves.toBe(true);
      await expect(thumbnails(page).evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')))).resolves.toEqual(
        LOGO_NAMES,
      );
      await expect(thumbnail(page, 'Ring mark').getAttribute('aria-current')).resolves.toBe('true');
      await expect(page.getByTestId('current-logo').getByRole('img', { name: 'Ring mark', exact: true }).count()).resolves.toBe(1);
      await expect(unseenLine(page).innerText()).resolves.toBe('3 logos not seen yet');
      // The spec's button text is unchanged; the line describes it.
      await expect(page.getByTestId('vote-button').innerText()).resolves.toBe('Vote');
      await expect(page.getByRole('button', { name: 'Vote', exact: true }).getAttribute('aria-describedby')).resolves.toBe(
        await unseenLine(page).getAttribute('id'),
      );

      // Every tap target is at least 44 × 44 px: dots, thumbnails, and Previous/Next where they show.
      const targets = [
        ...(await sizes(page.getByTestId('position-dots').getByRole('button'))),
        ...(await sizes(thumbnails(page))),
        ...(await sizes(page.getByRole('button', { name: /^(Previous|Next)$/ }))),
      ];
      expect(targets.length).toBe(viewport === 'desktop' ? 10 : 8);
      for (const target of targets) {
        expect(target.width).toBeGreaterThanOrEqual(44);
        expect(target.height).toBeGreaterThanOrEqual(44);
      }
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('[data-testid="logo-thumbnails"] img')].every(
          (img) => img.complete && img.naturalWidth > 0,
        ),
      );
      await shoot(page, `vote-thumbnails-arrival-${viewport}`);

      // A tap on a thumbnail shows that logo; what has been seen counts down.
      await thumbnail(page, 'Diamond').click();
      await expectShown(page, ids[2]!);
      await expect(position(page)).resolves.toBe('3 of 4');
      await expect(thumbnail(page, 'Diamond').getAttribute('aria-current')).resolves.toBe('true');
      await expect(thumbnail(page, 'Ring mark').getAttribute('aria-current')).resolves.toBeNull();
      await expect(unseenLine(page).innerText()).resolves.toBe('2 logos not seen yet');
      await shoot(page, `vote-thumbnails-jumped-${viewport}`);

      // Voting before every logo was seen is allowed, and the event says so.
      await page.getByTestId('vote-button').click();
      await page.getByRole('button', { name: 'Voted!' }).waitFor({ timeout: 15_000 });
      await expect(thumbnail(page, 'Diamond').getAttribute('data-voted')).resolves.toBe('true');
      const confirmed = await waitForEvent(events, { name: 'vote_confirmed', session_id: session.sessionId, logo_id: ids[2]! });
      expect(confirmed.saw_all_logos).toBe(false);

      // Seeing the rest clears the line; a vote then records that every logo was seen.
      await thumbnail(page, 'Triangle').click();
      await expect(unseenLine(page).innerText()).resolves.toBe('1 logo not seen yet');
      await thumbnail(page, 'Wave').click();
      await expectShown(page, ids[3]!);
      await expect(unseenLine(page).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Change Vote' }).getAttribute('aria-describedby')).resolves.toBeNull();
      await page.getByTestId('vote-button').click();
      await page.getByRole('button', { name: 'Voted!' }).waitFor({ timeout: 15_000 });
      const changed = await waitForEvent(events, { name: 'vote_confirmed', session_id: session.sessionId, logo_id: ids[3]! });
      expect(changed.saw_all_logos).toBe(true);
      await expectAccessible(page);
      await shoot(page, `vote-thumbnails-all-seen-${viewport}`);
    },
  );

  it('hints at swiping on a first visit with a touch screen, until the voter moves; then never again', async () => {
    const session = await createPoll({ logoNames: LOGO_NAMES });
    const page = await openDevice('phone');
    await openVoting(session, page);
    const hint = page.getByTestId('swipe-hint');
    await expect(hint.innerText()).resolves.toBe('Swipe to see all 4 logos');
    await expect(hint.isVisible()).resolves.toBe(true);
    await expectAccessible(page);
    await shoot(page, 'vote-swipe-hint-phone');

    await thumbnail(page, 'Triangle').click();
    await expectShown(page, session.logos[1]!.id);
    await expect(hint.count()).resolves.toBe(0);

    // Remembered on this device: another poll shows no hint.
    const other = await createPoll({ logos: ['logo-ring.png', 'logo-square.png'] });
    await openVoting(other, page);
    await expect(page.getByTestId('current-logo').count()).resolves.toBe(1);
    await expect(hint.count()).resolves.toBe(0);
  });

  it('shows no swipe hint where Previous and Next are shown (a mouse)', async () => {
    const session = await createPoll({ logoNames: LOGO_NAMES });
    const page = await openDevice('desktop');
    await openVoting(session, page);
    await expect(page.getByTestId('swipe-hint').count()).resolves.toBe(0);
  });

  it('fits Previous, the 44 px dots and Next into a phone-wide window with a mouse', async () => {
    const session = await createPoll({ logoNames: LOGO_NAMES });
    const page = await browser.newPage('phone', { bypassCSP: true });
    await openVoting(session, page);
    await expect(page.getByRole('button', { name: 'Previous', exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Next', exact: true }).isVisible()).resolves.toBe(true);
    for (const target of await sizes(page.getByRole('button', { name: /^(Previous|Next|Show logo \d of 4)$/ }))) {
      expect(target.width).toBeGreaterThanOrEqual(44);
      expect(target.height).toBeGreaterThanOrEqual(44);
    }
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await shoot(page, 'vote-thumbnails-narrow-mouse');
  });
});

describe('the small things on the voting page', () => {
  it.each(['phone', 'desktop'] as const)("offers a way home from 'Voting session not found' on a %s", async (viewport) => {
    const page = await openDevice(viewport);
    await visitPollScreen(page, '/vote/AAAAAAAAAAAAAAAA', 'vote');
    await page.waitForSelector('[data-remote="vote"][data-phase="not-found"]', { timeout: 15_000 });
    const notFound = page.getByTestId('vote-not-found');
    await expect(notFound.getByRole('heading', { level: 1, name: 'Voting session not found' }).count()).resolves.toBe(1);
    await expect(notFound.innerText()).resolves.toContain("The voting session you're looking for doesn't exist or has expired.");
    await expectAccessible(page);
    await shoot(page, `vote-not-found-home-${viewport}`);
    await notFound.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: 'Get Votes!' }).waitFor({ timeout: 15_000 });
  });

  it("gives the keyboard back to 'Done' and to 'Report this poll' when their dialogs close", async () => {
    const session = await createPoll({ logoNames: LOGO_NAMES });
    const page = await openDevice('desktop');
    await openVoting(session, page);
    await page.getByTestId('vote-button').click();
    const done = page.getByRole('button', { name: 'Done' });
    await done.waitFor({ timeout: 15_000 });

    await done.focus();
    await page.keyboard.press('Enter');
    const thanks = page.getByRole('dialog', { name: 'Thank you for your vote!' });
    await thanks.waitFor();
    await expect(thanks.innerText()).resolves.toContain('You voted for: Ring mark');
    await page.keyboard.press('Enter');
    await thanks.waitFor({ state: 'detached' });
    await expectFocusOn(done);
    // Escape too.
    await page.keyboard.press('Enter');
    await thanks.waitFor();
    await page.keyboard.press('Escape');
    await thanks.waitFor({ state: 'detached' });
    await expectFocusOn(done);

    const report = page.getByTestId('report-poll');
    await report.focus();
    await page.keyboard.press('Enter');
    const reportDialog = page.getByRole('dialog', { name: 'Report this poll' });
    await reportDialog.waitFor();
    await reportDialog.getByRole('button', { name: 'Cancel' }).click();
    await reportDialog.waitFor({ state: 'detached' });
    await expectFocusOn(report);
    await expect(shownLogoId(page)).resolves.toBe(session.logos[0]!.id);
  });
});
