/**
 * The voter's way through a poll after the vote (docs/results-visibility.md, docs/every-option-seen.md): the
 * results the poll promised are one tap away from the thank-you dialog and the page after it; the reason box stays
 * clear of the bottom bar and the on-screen keyboard on a phone; and what a voter has seen of a poll is remembered
 * by this browser, on the screen and on its first paint.
 */
import type { CreatedSessionWithCreatorToken, SessionView } from '@logovote/contracts';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { screenshotPath } from '../support/browser';
import { closeVoting, myVoteOfPage, visitPollScreen, voteThroughApi } from '../support/polls';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectFocusOn,
  expectNoHorizontalOverflow,
  expectVoteButton,
  fixture,
  holdScripts,
  recordAnalytics,
  shoot,
  useBrowser,
  waitForEvent,
} from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const LOGO_NAMES = ['Wheat ear', 'White croissant', 'Simple wordmark', 'Playful'];
/** The voters' devices: a phone (touch) and a desktop, at these sizes. */
const DEVICES = {
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  'small-phone': { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true },
  desktop: { viewport: { width: 1280, height: 900 } },
} as const satisfies Record<string, BrowserContextOptions>;
type Device = keyof typeof DEVICES;

/** The CSP is bypassed only so expectAccessible() can inject axe-core (as in vote-page.test.ts). */
const openDevice = (device: Device) => browser.newPage(device === 'desktop' ? 'desktop' : 'phone', { bypassCSP: true, ...DEVICES[device] });

type Visibility = 'everyone' | 'after-vote' | 'after-close';

/**
 * Four raster logos: an SVG's safety check (a drawing within 5 s) is not what these tests are about, and a machine
 * under load can fail it.
 */
const LOGO_FILES = ['logo-ring.png', 'logo-triangle.jpg', 'logo-diamond.webp', 'logo-square.png'];

/** A poll of four logos, named, with who sees its results (the create form's choice). */
async function createPoll(resultsVisibility: Visibility): Promise<CreatedSessionWithCreatorToken> {
  const form = new FormData();
  for (const name of LOGO_FILES) {
    const file = fixture(name);
    form.append('logos', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  }
  for (const name of LOGO_NAMES) form.append('logoNames', name);
  form.append('feedbackPrompt', 'Which one belongs on the bakery door?');
  form.append('resultsVisibility', resultsVisibility);
  const res = await fetch(`${gatewayUrl}/api/sessions`, { method: 'POST', body: form });
  if (res.status !== 201) throw new Error(`creating a poll: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedSessionWithCreatorToken;
}

/** The poll's counts as its creator reads them (a rule withholds them from an anonymous read). */
async function creatorCounts(session: CreatedSessionWithCreatorToken): Promise<number[]> {
  const res = await fetch(`${gatewayUrl}/api/sessions/${session.sessionId}`, { headers: { 'X-Creator-Token': session.creatorToken } });
  return ((await res.json()) as SessionView).logos.map((logo) => logo.voteCount);
}

const phase = (page: Page, remote: 'vote' | 'results') => page.locator(`[data-remote="${remote}"]`).getAttribute('data-phase');
const thumbnail = (page: Page, name: string) => page.getByRole('group', { name: 'All logos' }).getByRole('button', { name, exact: true });
const doneDialog = (page: Page) => page.getByRole('dialog', { name: 'Thank you for your vote!' });
const barResults = (page: Page) => page.getByTestId('vote-bar').getByRole('link', { name: 'View results' });

async function openVoting(page: Page, session: CreatedSessionWithCreatorToken) {
  const events = recordAnalytics(page);
  await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
  await page.waitForSelector('[data-remote="vote"]:not([data-phase="loading"])', { timeout: 15_000 });
  return events;
}

async function expectShown(page: Page, logoId: string): Promise<void> {
  await page.waitForSelector(`[data-testid="current-logo"][data-logo-id="${logoId}"]`, { timeout: 5_000 });
}

async function vote(page: Page, text = 'Voted!'): Promise<void> {
  await page.getByTestId('vote-button').click();
  await expectVoteButton(page, text);
}

/** What the viewport shows now (not the full page): what a sticky bar covers is seen only so. */
async function shootViewport(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(name) });
}

describe('a voter reaches the results the poll promised, from the thank-you dialog and the page after it', () => {
  it.each(['phone', 'desktop'] as const)("'Voters, once they have voted': 'View results' after the vote, on a %s", async (device) => {
    const session = await createPoll('after-vote');
    await voteThroughApi(session.sessionId, session.logos[1]!.id);
    const page = await openDevice(device);
    await openVoting(page, session);
    await expect(phase(page, 'vote')).resolves.toBe('voting');
    // Before voting, nothing of the results is offered.
    await expect(barResults(page).count()).resolves.toBe(0);

    await vote(page);
    await expect(barResults(page).getAttribute('href')).resolves.toBe(`/results/${session.sessionId}`);
    await page.getByRole('button', { name: 'Done' }).click();
    const dialog = doneDialog(page);
    await dialog.waitFor();
    await expect(dialog.innerText()).resolves.toContain('Your feedback has been recorded.');
    await expect(dialog.getByRole('button', { name: 'Close' }).count()).resolves.toBe(1);
    await expect(dialog.getByRole('link', { name: 'View results' }).getAttribute('href')).resolves.toBe(`/results/${session.sessionId}`);
    await expect(dialog.getByTestId('done-results-later').count()).resolves.toBe(0);
    await expectAccessible(page);
    await shoot(page, `voter-flow-done-results-${device}`);

    // Close: back on the logos, the vote still changeable, and the results still one tap away.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(phase(page, 'vote')).resolves.toBe('voting');
    await expect(barResults(page).isVisible()).resolves.toBe(true);
    await expectNoHorizontalOverflow(page);
    await shootViewport(page, `voter-flow-after-close-${device}`);
    await thumbnail(page, 'Simple wordmark').click();
    await expectShown(page, session.logos[2]!.id);
    await expectVoteButton(page, 'Change Vote');
    await vote(page);
    await expect(myVoteOfPage(page, session.sessionId)).resolves.toMatchObject({ hasVoted: true, logoId: session.logos[2]!.id });

    // Done again: the same offer, and 'View results' shows this voter the counts (the server sees its vote).
    await page.getByRole('button', { name: 'Done' }).click();
    await dialog.getByRole('link', { name: 'View results' }).click();
    await page.waitForSelector('[data-remote="results"]:not([data-phase="loading"])', { timeout: 15_000 });
    await expect(phase(page, 'results')).resolves.toBe('results');
    await expect(page.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 2');
    await expect(page.getByTestId('results-visibility-note').innerText()).resolves.toBe(
      'Visitors see these results only after they have voted.',
    );
    await shoot(page, `voter-flow-results-${device}`);

    // Back to the voting page: the page after the dialog (the confirmation) offers the results too.
    await page.goBack();
    await page.waitForSelector('[data-remote="vote"][data-phase="confirmation"]', { timeout: 15_000 });
    await page.getByRole('link', { name: 'View all results' }).click();
    await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
    expect(await creatorCounts(session)).toEqual([0, 1, 1, 0]);
  });

  it.each(['phone', 'desktop'] as const)(
    "'Everyone, once voting closes': no results offered while voting is open, and the dialog says when (%s)",
    async (device) => {
      const session = await createPoll('after-close');
      const page = await openDevice(device);
      await openVoting(page, session);
      await vote(page);
      await expect(barResults(page).count()).resolves.toBe(0);
      await page.getByRole('button', { name: 'Done' }).click();
      const dialog = doneDialog(page);
      await dialog.waitFor();
      await expect(dialog.getByRole('link', { name: 'View results' }).count()).resolves.toBe(0);
      await expect(dialog.getByTestId('done-results-later').innerText()).resolves.toBe('Results are shown when voting closes.');
      await expectAccessible(page);
      await shoot(page, `voter-flow-done-after-close-${device}`);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(phase(page, 'vote')).resolves.toBe('voting');

      // Once the creator closes voting, the voting page shows the final results and its way to the results page.
      await closeVoting(session);
      await page.reload();
      await page.waitForSelector('[data-remote="vote"][data-phase="closed"]', { timeout: 15_000 });
      await page.getByRole('link', { name: 'View all results' }).click();
      await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
      await expect(page.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 1');
    },
  );

  it("'Everyone, at any time': the dialog and the page offer the results at once", async () => {
    const session = await createPoll('everyone');
    const page = await openDevice('phone');
    await openVoting(page, session);
    await vote(page);
    await expect(barResults(page).isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Done' }).click();
    await doneDialog(page).getByRole('link', { name: 'View results' }).click();
    await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
    await expect(page.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 1');
  });
});

/** Where the element and the bar are on screen, and the bottom of what the viewport shows. */
const layout = (page: Page, testId: string) =>
  page.evaluate((id) => {
    const element = document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect();
    const bar = document.querySelector('[data-testid="vote-bar"]')!.getBoundingClientRect();
    const viewport = window.visualViewport!;
    return { top: element.top, bottom: element.bottom, barTop: bar.top, viewportBottom: viewport.offsetTop + viewport.height };
  }, testId);

/** `testId` is wholly on screen, above the bottom bar. */
async function expectClearOfBar(page: Page, testId: string): Promise<void> {
  await page.waitForFunction(
    (id) => {
      const element = document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect();
      const bar = document.querySelector('[data-testid="vote-bar"]')?.getBoundingClientRect();
      const viewport = window.visualViewport!;
      return element && bar && element.top >= 0 && element.bottom <= Math.min(bar.top, viewport.offsetTop + viewport.height);
    },
    testId,
    { timeout: 5_000 },
  );
  const { bottom, barTop, viewportBottom } = await layout(page, testId);
  expect(bottom).toBeLessThanOrEqual(barTop);
  expect(bottom).toBeLessThanOrEqual(viewportBottom);
}

describe("the reason box stays clear of the voting page's bottom bar", () => {
  it.each(['phone', 'small-phone', 'desktop'] as const)('while the voter types, and with the keyboard open, on a %s', async (device) => {
    const session = await createPoll('everyone');
    const page = await openDevice(device);
    await openVoting(page, session);
    await vote(page);
    const input = page.getByTestId('reason-input');
    await input.waitFor();
    if (device === 'desktop') await input.click();
    else await input.tap();
    await expectFocusOn(page.getByTestId('reason-input'));
    // The field, its counter and its message line are above the bar.
    await expectClearOfBar(page, 'reason-count');
    await expectClearOfBar(page, 'reason-input');
    await input.pressSequentially('Warm and simple');
    await expect(page.getByTestId('reason-count').innerText()).resolves.toBe('15/140');
    await expectClearOfBar(page, 'reason-count');
    await shootViewport(page, `voter-flow-reason-typing-${device}`);

    // The on-screen keyboard takes the bottom of the screen (here: the viewport shrinks as with it open).
    const { width, height } = DEVICES[device].viewport;
    await page.setViewportSize({ width, height: Math.round(height * 0.55) });
    await expectClearOfBar(page, 'reason-count');
    await expectClearOfBar(page, 'reason-input');
    await shootViewport(page, `voter-flow-reason-keyboard-${device}`);
    await page.setViewportSize({ width, height });

    // Scrolled to the end, nothing lies under the bar either: the last box of the page (the note box, once the
    // voter has a vote) is wholly above it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expectClearOfBar(page, (await page.getByTestId('note-box').count()) > 0 ? 'note-box' : 'reason-box');
    await expectNoHorizontalOverflow(page);
  });
});

const unseenLine = (page: Page) => page.getByTestId('unseen-count');
const firstPaintUnseen = (page: Page) => page.getByTestId('first-paint-unseen');

/**
 * Opens the voting page again with every script but start.js held: the first paint as a slow network shows it once
 * its first script has run. Returns the release of the screen's code.
 */
async function openFirstPaint(page: Page, session: CreatedSessionWithCreatorToken): Promise<() => void> {
  const release = await holdScripts(page, (path) => path === '/start.js');
  await page.goto(`${gatewayUrl}/vote/${session.sessionId}`, { waitUntil: 'commit' });
  await page.locator('button[data-first-paint-vote]:not([aria-disabled])').waitFor({ timeout: 10_000 });
  return release;
}

describe('what a voter has seen of a poll is remembered in this browser', () => {
  it.each(['phone', 'desktop'] as const)(
    'after voting and when changing the vote, on the screen and its first paint, and in saw_all_logos (%s)',
    async (device) => {
      const session = await createPoll('after-vote');
      const ids = session.logos.map((logo) => logo.id);
      const page = await openDevice(device);
      await openVoting(page, session);
      await expect(unseenLine(page).innerText()).resolves.toBe('3 logos not seen yet');
      await thumbnail(page, 'Simple wordmark').click();
      await expect(unseenLine(page).innerText()).resolves.toBe('2 logos not seen yet');

      // Back later, before voting: the first paint and the screen both count what this browser has seen.
      let release = await openFirstPaint(page, session);
      await expect(firstPaintUnseen(page).innerText()).resolves.toBe('2 logos not seen yet');
      await shootViewport(page, `voter-flow-first-paint-partly-seen-${device}`);
      release();
      await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
      await expect(unseenLine(page).innerText()).resolves.toBe('2 logos not seen yet');

      // Seeing the other two, then voting: every logo seen.
      const events = recordAnalytics(page);
      await thumbnail(page, 'White croissant').click();
      await thumbnail(page, 'Playful').click();
      await expect(unseenLine(page).count()).resolves.toBe(0);
      await thumbnail(page, 'Wheat ear').click();
      await vote(page);
      expect((await waitForEvent(events, { name: 'vote_confirmed', logo_id: ids[0]! })).saw_all_logos).toBe(true);
      await expect(unseenLine(page).count()).resolves.toBe(0);

      // Back later: the first paint says nothing is unseen (its line goes, the button is described by nothing).
      release = await openFirstPaint(page, session);
      await expect(firstPaintUnseen(page).count()).resolves.toBe(0);
      await expect(page.getByTestId('first-paint-vote-button').getAttribute('aria-describedby')).resolves.toBeNull();
      await shootViewport(page, `voter-flow-first-paint-all-seen-${device}`);
      release();
      await page.waitForSelector('[data-remote="vote"][data-phase="confirmation"]', { timeout: 15_000 });

      // Changing the vote: the voting view starts on the vote, with no 'logos not seen yet'.
      await page.getByTestId('change-my-vote').click();
      await expectShown(page, ids[0]!);
      await expect(unseenLine(page).count()).resolves.toBe(0);
      await expectAccessible(page);
      await shootViewport(page, `voter-flow-change-vote-all-seen-${device}`);
      const changeEvents = recordAnalytics(page);
      await thumbnail(page, 'Playful').click();
      await vote(page);
      // The collector is sent saw_all_logos true for the changed vote: every logo was seen, in an earlier visit.
      expect((await waitForEvent(changeEvents, { name: 'vote_confirmed', logo_id: ids[3]! })).saw_all_logos).toBe(true);
      expect(await creatorCounts(session)).toEqual([0, 0, 0, 1]);
    },
  );

  it('keeps each poll apart, and a new browser starts from the logo it shows', async () => {
    const first = await createPoll('everyone');
    const second = await createPoll('everyone');
    const page = await openDevice('phone');
    await openVoting(page, first);
    for (const name of LOGO_NAMES) await thumbnail(page, name).click();
    await expect(unseenLine(page).count()).resolves.toBe(0);
    await openVoting(page, second);
    await expect(unseenLine(page).innerText()).resolves.toBe('3 logos not seen yet');
    const other = await openDevice('phone');
    await openVoting(other, first);
    await expect(unseenLine(other).innerText()).resolves.toBe('3 logos not seen yet');
  });
});
