import type { Page } from 'playwright-core';
import { createPoll, getPoll, myVoteOfPage, visitPollScreen } from '../support/polls';
import {
  expectAccessible,
  expectFocusOn,
  expectNoHorizontalOverflow,
  expectVoteButton,
  shoot,
  useBrowser,
  type ViewportName,
} from '../support/web';

const browser = useBrowser();

const TOUCH_PHONE = { hasTouch: true, isMobile: true };
const LOGO_NAMES = ['Ring mark', 'Triangle', 'Diamond', 'Wave'];

/** The CSP is bypassed only so expectAccessible() can inject axe-core (as in vote-page.test.ts). */
const openDevice = (viewport: ViewportName) => browser.newPage(viewport, { bypassCSP: true, ...(viewport === 'phone' ? TOUCH_PHONE : {}) });

const phase = (page: Page) => page.locator('[data-remote="vote"]').getAttribute('data-phase');
const thumbnail = (page: Page, name: string) => page.getByRole('group', { name: 'All logos' }).getByRole('button', { name, exact: true });
const reasonInput = (page: Page) => page.getByLabel('Why this one? (optional)');

describe('a returning voter', () => {
  it.each(['phone', 'desktop'] as const)(
    'sees the reason given, edits it, and changes the vote from the confirmation screen on a %s',
    async (viewport) => {
      const session = await createPoll({ logoNames: LOGO_NAMES, feedbackPrompt: 'Which one reads best on a van?' });
      const [ring, triangle] = session.logos;
      const page = await openDevice(viewport);
      await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
      await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
      await thumbnail(page, 'Triangle').click();
      await page.getByTestId('vote-button').click();
      await expectVoteButton(page, 'Voted!');
      await reasonInput(page).fill('Sharp and simple');
      await page.getByTestId('reason-send').click();
      await page.getByTestId('reason-sent').waitFor();

      // Back later: the spec's confirmation screen, with the reason given, ready to edit.
      await page.reload();
      await page.waitForSelector('[data-remote="vote"][data-phase="confirmation"]', { timeout: 15_000 });
      const confirmation = page.getByTestId('vote-confirmation');
      await expect(confirmation.getByRole('heading', { level: 1, name: 'Vote submitted!' }).count()).resolves.toBe(1);
      const text = await confirmation.innerText();
      expect(text).toContain('Thank you for your feedback');
      expect(text).toContain('You voted for:');
      await expect(confirmation.getByRole('img', { name: 'Triangle', exact: true }).count()).resolves.toBe(1);
      await expect(reasonInput(page).inputValue()).resolves.toBe('Sharp and simple');
      // Nothing to save until it changes.
      await expect(page.getByTestId('reason-send').getAttribute('aria-disabled')).resolves.toBe('true');
      await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('[data-testid="voted-logo"]')?.naturalWidth ?? 0) > 0);
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `vote-change-confirmation-${viewport}`);

      await reasonInput(page).fill('Sharp, simple, and it reads from afar');
      await page.getByTestId('reason-send').click();
      await expect(page.getByTestId('reason-sent').innerText()).resolves.toBe(
        'Thanks for telling us why: “Sharp, simple, and it reads from afar”',
      );
      await expect(myVoteOfPage(page, session.sessionId)).resolves.toEqual({
        hasVoted: true,
        logoId: triangle!.id,
        reason: 'Sharp, simple, and it reads from afar',
      });
      // 'Edit' opens the field again, with the keyboard in it.
      await page.getByRole('button', { name: 'Edit your reason' }).click();
      await expectFocusOn(page.getByTestId('reason-input'));
      await expect(reasonInput(page).inputValue()).resolves.toBe('Sharp, simple, and it reads from afar');
      await shoot(page, `vote-change-reason-edit-${viewport}`);

      // 'Change my vote': the logos again, on the one voted for, marked; the spec's states apply.
      await page.getByRole('button', { name: 'Change my vote' }).click();
      await page.waitForSelector('[data-remote="vote"][data-phase="voting"]');
      await expect(page.getByTestId('current-logo').getAttribute('data-logo-id')).resolves.toBe(triangle!.id);
      await expect(page.getByTestId('current-logo').getAttribute('data-voted')).resolves.toBe('true');
      await expectVoteButton(page, 'Voted!');
      await expectFocusOn(page.getByTestId('vote-button'));
      await expect(thumbnail(page, 'Triangle').getAttribute('data-voted')).resolves.toBe('true');
      await expectAccessible(page);
      await shoot(page, `vote-change-carousel-${viewport}`);

      await thumbnail(page, 'Ring mark').click();
      await expectVoteButton(page, 'Change Vote');
      await page.getByTestId('vote-button').click();
      await expectVoteButton(page, 'Voted!');
      await expect(myVoteOfPage(page, session.sessionId)).resolves.toEqual({ hasVoted: true, logoId: ring!.id });
      const poll = await getPoll(session.sessionId);
      expect(poll.logos.map((logo) => logo.voteCount)).toEqual([1, 0, 0, 0]);
      // The old reason explained the old choice: the box starts afresh.
      await expect(reasonInput(page).inputValue()).resolves.toBe('');
      await expect(page.getByRole('button', { name: 'Done' }).count()).resolves.toBe(1);
      await shoot(page, `vote-change-changed-${viewport}`);

      await page.reload();
      await page.waitForSelector('[data-remote="vote"][data-phase="confirmation"]', { timeout: 15_000 });
      await expect(page.getByTestId('voted-logo-name').innerText()).resolves.toBe('Ring mark');
      await expect(reasonInput(page).inputValue()).resolves.toBe('');
      await expect(phase(page)).resolves.toBe('confirmation');
    },
  );
});
