/**
 * The first paint's Vote button (shells/web/index.html, packages/web-client/src/first-paint-vote.ts): it takes a
 * tap as soon as the page's first script (start.js) has run, long before the voting screen's code has arrived on
 * a slow network, and the screen sends that vote once it has replaced the first paint.
 */
import type { CreatedSessionWithCreatorToken } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { closeVoting, createPoll, getPoll, myVoteOf, randomFingerprint, voteThroughApi } from '../support/polls';
import { testStack } from '../support/stack-env';
import {
  expectNoHorizontalOverflow,
  expectVoteButton,
  holdScripts,
  recordAnalytics,
  shoot,
  useBrowser,
  waitForEvent,
  type ViewportName,
} from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const PROMPT = 'Which logo would you put on the bakery van?';
const LOGO_NAMES = ['Ring mark', 'Triangle', 'Diamond', 'Wave'];
const firstPaintVote = (page: Page) => page.getByTestId('first-paint-vote-button');
const phase = (page: Page) => page.locator('[data-remote="vote"]').getAttribute('data-phase');

/**
 * Opens the voting page of `session` as the visitor with `fingerprint`, with every script but start.js held back
 * until `releaseScreen` is called: the first paint with its Vote button taking taps, as a slow network shows it.
 */
async function openWithScreenHeld(viewport: ViewportName, session: CreatedSessionWithCreatorToken, fingerprint = randomFingerprint()) {
  const page = await browser.newPage(viewport, viewport === 'phone' ? { hasTouch: true, isMobile: true } : {});
  await page.addInitScript((stored) => localStorage.setItem('logoVotingFingerprint', stored), fingerprint);
  const events = recordAnalytics(page);
  const releaseScreen = await holdScripts(page, (path) => path === '/start.js');
  await page.goto(`${gatewayUrl}/vote/${session.sessionId}`, { waitUntil: 'commit' });
  await page.locator('button[data-first-paint-vote]:not([aria-disabled])').waitFor({ timeout: 10_000 });
  return { page, events, releaseScreen, fingerprint };
}

async function tapVote(page: Page, viewport: ViewportName): Promise<void> {
  if (viewport === 'phone') await firstPaintVote(page).tap();
  else await firstPaintVote(page).click();
}

/** The screen took over and sent the kept vote: 'Voted!' on `logoId`, the visitor's one vote in the poll. */
async function expectVoteSent(page: Page, sessionId: string, fingerprint: string, logoId: string): Promise<void> {
  await expectVoteButton(page, 'Voted!');
  await expect(phase(page)).resolves.toBe('voting');
  await expect(page.getByTestId('current-logo').getAttribute('data-logo-id')).resolves.toBe(logoId);
  await expect(myVoteOf(sessionId, fingerprint)).resolves.toMatchObject({ hasVoted: true, logoId });
  const poll = await getPoll(sessionId);
  expect(poll.totalVotes).toBe(1);
  expect(poll.logos.find((logo) => logo.id === logoId)?.voteCount).toBe(1);
}

describe("the first paint's Vote button", () => {
  it.each(['phone', 'desktop'] as const)(
    "takes a tap before the screen's code has arrived, and the screen sends that vote, on a %s",
    async (viewport) => {
      const session = await createPoll({ feedbackPrompt: PROMPT, logoNames: LOGO_NAMES });
      const [first] = session.logos;
      const { page, events, releaseScreen, fingerprint } = await openWithScreenHeld(viewport, session);
      await expect(firstPaintVote(page).innerText()).resolves.toBe('Vote');
      await expect(page.getByTestId('first-paint-unseen').innerText()).resolves.toBe('3 logos not seen yet');
      await expectNoHorizontalOverflow(page);
      await shoot(page, `first-paint-vote-usable-${viewport}`);

      await tapVote(page, viewport);
      await expect(firstPaintVote(page).innerText()).resolves.toBe('Submitting...');
      await expect(firstPaintVote(page).getAttribute('aria-busy')).resolves.toBe('true');
      // A second tap keeps nothing more: one vote is on its way.
      await expect(firstPaintVote(page).getAttribute('aria-disabled')).resolves.toBe('true');
      await shoot(page, `first-paint-vote-kept-${viewport}`);
      // Kept, not sent: the screen's code sends it.
      await expect(getPoll(session.sessionId).then((poll) => poll.totalVotes)).resolves.toBe(0);

      releaseScreen();
      await expectVoteSent(page, session.sessionId, fingerprint, first!.id);
      // The voter had seen one logo of four.
      const confirmed = await waitForEvent(events, { name: 'vote_confirmed', session_id: session.sessionId });
      expect(confirmed.logo_id).toBe(first!.id);
      expect(confirmed.saw_all_logos).toBe(false);
      await page.getByRole('button', { name: 'Done' }).waitFor();
      await shoot(page, `first-paint-vote-sent-${viewport}`);
    },
  );

  it('takes no tap before start.js has run: it is shown disabled, and a click keeps nothing', async () => {
    const session = await createPoll({ feedbackPrompt: PROMPT });
    const page = await browser.newPage('phone', { hasTouch: true, isMobile: true });
    const releaseScripts = await holdScripts(page);
    await page.goto(`${gatewayUrl}/vote/${session.sessionId}`, { waitUntil: 'commit' });
    await firstPaintVote(page).waitFor();
    await expect(firstPaintVote(page).getAttribute('aria-disabled')).resolves.toBe('true');
    await firstPaintVote(page).click({ force: true });
    await expect(page.evaluate(() => document.documentElement.getAttribute('data-kept-vote'))).resolves.toBeNull();
    await expect(firstPaintVote(page).innerText()).resolves.toBe('Vote');

    releaseScripts();
    await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
    await expectVoteButton(page, 'Vote');
    await expect(getPoll(session.sessionId).then((poll) => poll.totalVotes)).resolves.toBe(0);
  });

  it('shows a returning voter who taps the logo already voted for the confirmation, and changes nothing', async () => {
    const session = await createPoll({ feedbackPrompt: PROMPT, logoNames: LOGO_NAMES });
    const [first] = session.logos;
    const fingerprint = randomFingerprint();
    await voteThroughApi(session.sessionId, first!.id, fingerprint);
    const { page, releaseScreen } = await openWithScreenHeld('phone', session, fingerprint);
    await tapVote(page, 'phone');
    releaseScreen();
    await page.waitForSelector('[data-remote="vote"][data-phase="confirmation"]', { timeout: 15_000 });
    await expect(page.getByTestId('voted-logo-name').innerText()).resolves.toBe('Ring mark');
    const poll = await getPoll(session.sessionId);
    expect(poll.totalVotes).toBe(1);
    expect(poll.logos.find((logo) => logo.id === first!.id)?.voteCount).toBe(1);
  });

  it("changes a returning voter's vote to the logo the first paint showed", async () => {
    const session = await createPoll({ feedbackPrompt: PROMPT, logoNames: LOGO_NAMES });
    const [first, second] = session.logos;
    const fingerprint = randomFingerprint();
    await voteThroughApi(session.sessionId, second!.id, fingerprint);
    const { page, releaseScreen } = await openWithScreenHeld('phone', session, fingerprint);
    await tapVote(page, 'phone');
    releaseScreen();
    await expectVoteSent(page, session.sessionId, fingerprint, first!.id);
    await expect(getPoll(session.sessionId).then((poll) => poll.logos.map((logo) => logo.voteCount))).resolves.toEqual([1, 0, 0, 0]);
  });

  it('is not on the first paint of a closed poll, nor of its results page', async () => {
    const session = await createPoll({ feedbackPrompt: PROMPT });
    const results = await fetch(`${gatewayUrl}/results/${session.sessionId}`).then((res) => res.text());
    expect(results).not.toContain('data-first-paint-vote');
    await closeVoting(session);
    const vote = await fetch(`${gatewayUrl}/vote/${session.sessionId}`).then((res) => res.text());
    expect(vote).toContain(`/api/logos/${session.logos[0]!.filename}`);
    expect(vote).not.toContain('data-first-paint-vote');
  });
});
