import type { CreatedSession } from '@logovote/contracts';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { createPoll, visitPollScreen, voteThroughApi, withoutEmbeddedPoll } from '../support/polls';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  expectToast,
  recordAnalytics,
  shoot,
  useBrowser,
  waitForEvent,
  type ViewportName,
} from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const PROMPT = 'Which logo feels most trustworthy?';
const TOUCH_PHONE = { hasTouch: true, isMobile: true };

/**
 * A page on a phone (touch screen, mobile viewport) or a desktop. The gateway's Content-Security-Policy is
 * bypassed only so expectAccessible() can inject axe-core as an inline script; 'works under the gateway's
 * Content-Security-Policy' keeps it on.
 */
const openDevice = (viewport: ViewportName, options: BrowserContextOptions = {}) =>
  browser.newPage(viewport, { bypassCSP: true, ...(viewport === 'phone' ? TOUCH_PHONE : {}), ...options });

async function openResults(session: Pick<CreatedSession, 'sessionId'>, viewport: ViewportName, options: BrowserContextOptions = {}) {
  const page = await openDevice(viewport, options);
  const events = recordAnalytics(page);
  await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
  await page.waitForSelector('[data-remote="results"]:not([data-phase="loading"])', { timeout: 15_000 });
  return { page, events };
}

type CardText = { label: string; logoId: string; votes: string; percent: string; winner: boolean; bar: string | null };

/** What each result card says, in the order shown. */
async function cards(page: Page): Promise<CardText[]> {
  return page.getByTestId('result-card').evaluateAll((items) =>
    items.map((item) => ({
      label: item.querySelector('h2')?.textContent ?? '',
      logoId: item.getAttribute('data-logo-id') ?? '',
      votes: item.querySelector('[data-testid="vote-count"]')?.textContent ?? '',
      percent: item.querySelector('[data-testid="vote-percent"]')?.textContent ?? '',
      winner: item.querySelector('[data-testid="winner-badge"]') !== null,
      bar: item.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') ?? null,
    })),
  );
}

const totalVotes = (page: Page) => page.getByTestId('total-votes').innerText();

/** Votes in the voting page of `page` for the logo at `index`, using the dots (every device has them). */
async function voteInBrowser(page: Page, session: CreatedSession, index: number): Promise<void> {
  await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
  await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
  await page.getByRole('button', { name: `Show logo ${index + 1} of ${session.logos.length}` }).click();
  await page.waitForSelector(`[data-testid="current-logo"][data-logo-id="${session.logos[index]!.id}"]`);
  const voted = page.waitForResponse((res) => res.url().endsWith(`/api/sessions/${session.sessionId}/vote`));
  await page.getByTestId('vote-button').click();
  expect((await voted).status()).toBe(200);
  await page.waitForFunction(() => document.querySelector('[data-testid="vote-button"]')?.textContent?.trim() === 'Voted!');
}

describe('the results page while it loads, for a missing poll, and when the poll cannot be read', () => {
  it.each(['phone', 'desktop'] as const)("shows 'Loading results...' on a %s", async (viewport) => {
    const session = await createPoll();
    const page = await openDevice(viewport);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await withoutEmbeddedPoll(page, `/results/${session.sessionId}`);
    await page.route(`**/api/sessions/${session.sessionId}`, async (route) => {
      await released;
      await route.continue();
    });
    await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
    const loading = page.getByRole('status').filter({ hasText: 'Loading results...' });
    await loading.waitFor();
    await shoot(page, `results-loading-${viewport}`);
    release();
    await page.waitForSelector('[data-remote="results"][data-phase="results"]');
    await expect(loading.count()).resolves.toBe(0);
  });

  it.each(['phone', 'desktop'] as const)("says 'Results not found' on a %s", async (viewport) => {
    const { page } = await openResults({ sessionId: 'AAAAAAAAAAAAAAAA' }, viewport);
    await expect(page.locator('[data-remote="results"]').getAttribute('data-phase')).resolves.toBe('not-found');
    await expect(page.getByRole('heading', { level: 1, name: 'Results not found' }).count()).resolves.toBe(1);
    await expect(page.getByTestId('results-not-found').innerText()).resolves.toContain(
      "The voting session you're looking for doesn't exist.",
    );
    await expectAccessible(page);
    await shoot(page, `results-not-found-${viewport}`);
  });
  it('offers a retry when the results cannot be loaded for another reason than a missing poll', async () => {
    const session = await createPoll({ logos: ['logo-ring.png', 'logo-square.png'] });
    const page = await openDevice('desktop');
    await withoutEmbeddedPoll(page, `/results/${session.sessionId}`);
    await page.route(`**/api/sessions/${session.sessionId}`, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service temporarily unavailable."}' }),
    );
    await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
    await page.waitForSelector('[data-remote="results"][data-phase="failed"]', { timeout: 15_000 });
    await expect(page.getByRole('alert').getByRole('heading', { name: 'The results could not be loaded' }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await shoot(page, 'results-unavailable-desktop');
    await page.unroute(`**/api/sessions/${session.sessionId}`);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
    await expect(page.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 0');
  });
});

describe('the results of a poll', () => {
  it.each(['phone', 'desktop'] as const)(
    'shows every logo with 0 votes, 0%% and no winner before anyone votes, on a %s',
    async (viewport) => {
      const session = await createPoll({ feedbackPrompt: PROMPT });
      const { page, events } = await openResults(session, viewport);
      await expect(page.getByRole('heading', { level: 1, name: 'Voting Results' }).count()).resolves.toBe(1);
      await expect(totalVotes(page)).resolves.toBe('Total votes: 0');
      await expect(page.getByTestId('results-prompt').innerText()).resolves.toBe(`"${PROMPT}"`);
      // Ties keep the poll's order.
      await expect(cards(page)).resolves.toEqual(
        session.logos.map((logo, i) => ({
          label: `Logo ${'ABCD'[i]}`,
          logoId: logo.id,
          votes: '0 votes',
          percent: '0% of total votes',
          winner: false,
          bar: '0',
        })),
      );
      await expect(page.getByText('Winner', { exact: true }).count()).resolves.toBe(0);
      // Each card shows its logo's image.
      const sources = await page
        .getByTestId('result-card')
        .locator('img')
        .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src')));
      expect(sources).toEqual(session.logos.map((logo) => `/api/logos/${logo.filename}`));
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('[data-testid="result-card"] img')].every(
          (img) => img.complete && img.naturalWidth > 0,
        ),
      );

      // Two columns: the first two cards side by side, the third below the first.
      const [a, b, c] = await Promise.all([0, 1, 2].map((i) => page.getByTestId('result-card').nth(i).boundingBox()));
      expect(Math.abs(a!.y - b!.y)).toBeLessThan(1);
      expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
      expect(Math.abs(c!.x - a!.x)).toBeLessThan(1);
      expect(c!.y).toBeGreaterThan(a!.y + a!.height - 1);

      // The closing card.
      const another = page.getByTestId('create-another');
      await expect(another.getByRole('heading', { name: 'Want to test more logos?' }).count()).resolves.toBe(1);
      await expect(another.innerText()).resolves.toContain('Create another poll to compare different logo options');

      await waitForEvent(events, { name: 'results_viewed', session_id: session.sessionId });
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `results-no-votes-${viewport}`);
    },
  );

  it('changes its counts, percentages and winner as two real visitors vote and one changes the vote', async () => {
    const session = await createPoll({ feedbackPrompt: PROMPT });
    const ids = session.logos.map((logo) => logo.id);
    // Two people: different screens, languages and user agents, so different fingerprints.
    const alice = await openDevice('desktop', { locale: 'en-GB' });
    const bob = await openDevice('phone', { locale: 'fr-FR', userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile' });

    await voteInBrowser(alice, session, 2);
    let { page } = await openResults(session, 'desktop');
    await expect(totalVotes(page)).resolves.toBe('Total votes: 1');
    await expect(cards(page)).resolves.toEqual([
      { label: 'Logo A', logoId: ids[2], votes: '1 vote', percent: '100% of total votes', winner: true, bar: '100' },
      { label: 'Logo B', logoId: ids[0], votes: '0 votes', percent: '0% of total votes', winner: false, bar: '0' },
      { label: 'Logo C', logoId: ids[1], votes: '0 votes', percent: '0% of total votes', winner: false, bar: '0' },
      { label: 'Logo D', logoId: ids[3], votes: '0 votes', percent: '0% of total votes', winner: false, bar: '0' },
    ]);
    await expect(page.getByTestId('winner-badge').innerText()).resolves.toBe('Winner');
    await shoot(page, 'results-one-vote-desktop');

    await voteInBrowser(bob, session, 1);
    const fingerprints = await Promise.all([alice, bob].map((p) => p.evaluate(() => localStorage.getItem('logoVotingFingerprint'))));
    expect(fingerprints[0]).not.toBe(fingerprints[1]);
    await page.reload();
    await page.waitForSelector('[data-remote="results"][data-phase="results"]');
    await expect(totalVotes(page)).resolves.toBe('Total votes: 2');
    await expect(
      cards(page).then((shown) => shown.map(({ logoId, votes, percent, winner }) => ({ logoId, votes, percent, winner }))),
    ).resolves.toEqual([
      { logoId: ids[1], votes: '1 vote', percent: '50% of total votes', winner: true },
      { logoId: ids[2], votes: '1 vote', percent: '50% of total votes', winner: false },
      { logoId: ids[0], votes: '0 votes', percent: '0% of total votes', winner: false },
      { logoId: ids[3], votes: '0 votes', percent: '0% of total votes', winner: false },
    ]);

    // A third voter (outside the browser) makes thirds: 67% and 33%, rounded to whole numbers.
    await voteThroughApi(session.sessionId, ids[1]!);
    await page.reload();
    await page.waitForSelector('[data-remote="results"][data-phase="results"]');
    await expect(totalVotes(page)).resolves.toBe('Total votes: 3');
    await expect(cards(page).then((shown) => shown.map(({ logoId, votes, percent }) => ({ logoId, votes, percent })))).resolves.toEqual([
      { logoId: ids[1], votes: '2 votes', percent: '67% of total votes' },
      { logoId: ids[2], votes: '1 vote', percent: '33% of total votes' },
      { logoId: ids[0], votes: '0 votes', percent: '0% of total votes' },
      { logoId: ids[3], votes: '0 votes', percent: '0% of total votes' },
    ]);
    await shoot(page, 'results-three-votes-desktop');

    // Alice, still on the voting page, changes her vote: 3 votes in all still, her old logo loses one.
    await alice.getByRole('button', { name: 'Show logo 4 of 4' }).click();
    await alice.waitForSelector(`[data-testid="current-logo"][data-logo-id="${ids[3]!}"]`);
    const changed = alice.waitForResponse((res) => res.url().endsWith(`/api/sessions/${session.sessionId}/vote`));
    await alice.getByRole('button', { name: 'Change Vote' }).click();
    expect((await changed).status()).toBe(200);
    ({ page } = await openResults(session, 'phone'));
    await expect(totalVotes(page)).resolves.toBe('Total votes: 3');
    await expect(
      cards(page).then((shown) => shown.map(({ label, logoId, votes, percent, winner }) => ({ label, logoId, votes, percent, winner }))),
    ).resolves.toEqual([
      { label: 'Logo A', logoId: ids[1], votes: '2 votes', percent: '67% of total votes', winner: true },
      { label: 'Logo B', logoId: ids[3], votes: '1 vote', percent: '33% of total votes', winner: false },
      { label: 'Logo C', logoId: ids[0], votes: '0 votes', percent: '0% of total votes', winner: false },
      { label: 'Logo D', logoId: ids[2], votes: '0 votes', percent: '0% of total votes', winner: false },
    ]);
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    await shoot(page, 'results-votes-phone');
  });

  it("copies the voting link with 'Share' and says 'Link copied!'", async () => {
    const session = await createPoll();
    const { page } = await openResults(session, 'desktop', { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.getByRole('button', { name: 'Share' }).click();
    await expectToast(page, 'Link copied!', 'Voting link has been copied to clipboard.');
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(`${gatewayUrl}/vote/${session.sessionId}`);
    await shoot(page, 'results-link-copied-desktop');
  });

  it("leaves the prompt out when the poll has none, and 'Create New Poll' goes to the landing page", async () => {
    const session = await createPoll({ logos: ['logo-ring.png', 'logo-wave.svg'] });
    const { page } = await openResults(session, 'phone');
    await expect(page.getByTestId('results-prompt').count()).resolves.toBe(0);
    await expect(page.getByTestId('result-card').count()).resolves.toBe(2);
    await page.getByRole('link', { name: 'Create New Poll' }).click();
    await page.waitForURL(`${gatewayUrl}/`);
    await page.waitForSelector('[data-remote="create"]', { timeout: 15_000 });
  });
});
