/**
 * Fair order (beyond the spec, docs/fair-order.md): each voter sees a shuffled poll's logos in an order of
 * their own, stable for that voter, from the first paint on; results keep the spec's labels and ties.
 */
import type { CreatedSession } from '@logovote/contracts';
import { voterLogoOrder } from '@logovote/contracts/voter-order';
import type { Page } from 'playwright-core';
import { createPoll, visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, fixture, FOUR_LOGOS, holdScripts, shoot, useBrowser, visit, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const seedOf = (n: number) => n.toString(16).padStart(32, 'a');
const currentLogoId = (page: Page) => page.getByTestId('current-logo').getAttribute('data-logo-id');
const orderOf = (session: CreatedSession, seed: string) =>
  voterLogoOrder(
    session.sessionId,
    seed,
    session.logos.map((logo) => logo.id),
  );
const filenameOf = (session: CreatedSession, logoId: string) => session.logos.find((logo) => logo.id === logoId)?.filename;

/** A browser whose gateway cookie holds `seed` (or none: the gateway then gives it one). */
async function voterPage(viewport: ViewportName, seed?: string): Promise<Page> {
  const page = await browser.newPage(viewport, { bypassCSP: true });
  if (seed) await page.context().addCookies([{ name: 'lv_order', value: seed, url: `${gatewayUrl}/vote/` }]);
  return page;
}

/** The logos in the order the page goes through them with Next (the desktop's button). */
async function shownOrder(page: Page, count: number): Promise<string[]> {
  const shown: string[] = [];
  for (let step = 0; step < count; step++) {
    shown.push((await currentLogoId(page)) ?? '');
    const before = shown[shown.length - 1];
    await page.getByRole('button', { name: 'Next', exact: true }).click();
    await page.waitForFunction(
      (previous) => document.querySelector('[data-testid="current-logo"]')?.getAttribute('data-logo-id') !== previous,
      before,
    );
  }
  return shown;
}

async function openVoting(page: Page, session: CreatedSession): Promise<void> {
  await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
  await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
}

describe('a shuffled poll on the voting page', () => {
  let session: CreatedSession;
  beforeAll(async () => {
    session = await createPoll({ logoOrder: 'shuffled', feedbackPrompt: 'Which one would you trust?' });
  });

  it("shows each voter the logos in that voter's own order, and the same order again on the next visit", async () => {
    const seeds = [seedOf(1), seedOf(2), seedOf(3), seedOf(4), seedOf(5)];
    const seen = new Set<string>();
    for (const seed of seeds) {
      const page = await voterPage('desktop', seed);
      await openVoting(page, session);
      const order = await shownOrder(page, 4);
      expect(order).toEqual(orderOf(session, seed));
      seen.add(order.join());
      await page.reload();
      await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
      await expect(shownOrder(page, 4)).resolves.toEqual(order);
    }
    // Five voters, four logos: not everyone was shown the same order.
    expect(seen.size).toBeGreaterThan(1);
  });

  it("paints the voter's own first logo before any script runs, and the screen then shows the same one", async () => {
    // A seed whose first logo is not the first uploaded, so the check cannot pass by the upload order.
    const seed = [...Array(50).keys()].map(seedOf).find((candidate) => orderOf(session, candidate)[0] !== session.logos[0]!.id)!;
    const first = orderOf(session, seed)[0]!;
    const page = await voterPage('phone', seed);
    const releaseScripts = await holdScripts(page);
    await page.goto(`${gatewayUrl}/vote/${session.sessionId}`, { waitUntil: 'commit' });
    const firstPaint = page.locator('#root main > img');
    await firstPaint.waitFor();
    await expect(firstPaint.getAttribute('src')).resolves.toBe(`/api/logos/${filenameOf(session, first)}`);
    await expect(page.locator('link[rel="preload"][as="image"]').getAttribute('href')).resolves.toBe(
      `/api/logos/${filenameOf(session, first)}`,
    );
    await shoot(page, 'fair-order-first-paint-phone');
    releaseScripts();
    await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
    await expect(currentLogoId(page)).resolves.toBe(first);
    await shoot(page, 'fair-order-voting-phone');
  });

  it('gives a browser without the cookie one with its first page, and that page already follows it', async () => {
    const page = await voterPage('desktop');
    const response = await page.goto(`${gatewayUrl}/vote/${session.sessionId}`);
    const setCookie = (await response?.headerValue('set-cookie')) ?? '';
    const seed = /^lv_order=([0-9a-f]{32});/.exec(setCookie)?.[1];
    expect(seed).toBeDefined();
    const first = orderOf(session, seed!)[0]!;
    const html = (await response?.text()) ?? '';
    expect(html).toContain(`<img src="/api/logos/${filenameOf(session, first)}"`);
    await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
    await expect(shownOrder(page, 4)).resolves.toEqual(orderOf(session, seed!));
  });

  it('still shuffles, by the fingerprint, in a browser that refuses cookies', async () => {
    const page = await voterPage('desktop');
    // The gateway's cookie never reaches the page: what a browser refusing cookies would see. (Fetched outside
    // the browser: Playwright's route.fetch() would store the cookie in the context.)
    await page.route(`${gatewayUrl}/vote/**`, async (route) => {
      const response = await fetch(route.request().url());
      const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'set-cookie'));
      await route.fulfill({ status: response.status, headers, body: await response.text() });
    });
    await openVoting(page, session);
    const fingerprint = await page.evaluate(() => localStorage.getItem('logoVotingFingerprint'));
    await expect(shownOrder(page, 4)).resolves.toEqual(orderOf(session, fingerprint!));
  });

  it("keeps the spec's results: ranking labels, ties in upload order, whatever order voters saw", async () => {
    const page = await browser.newPage('desktop');
    await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
    await page.waitForSelector('[data-testid="result-card"]', { timeout: 15_000 });
    const cards = await page
      .getByTestId('result-card')
      .evaluateAll((items) => items.map((item) => [item.querySelector('h2')?.textContent ?? '', item.getAttribute('data-logo-id') ?? '']));
    // No votes: a tie of four, kept in upload order and labelled by position, as spec section 2 has it.
    expect(cards).toEqual(session.logos.map((logo, index) => [`Logo ${'ABCD'[index]}`, logo.id]));
  });
});

describe('a poll in the fixed order', () => {
  it('shows every voter the logos in upload order, whatever their cookie', async () => {
    const session = await createPoll();
    for (const seed of [seedOf(1), seedOf(2)]) {
      const page = await voterPage('desktop', seed);
      await openVoting(page, session);
      await expect(shownOrder(page, 4)).resolves.toEqual(session.logos.map((logo) => logo.id));
    }
  });
});

describe('the creation page', () => {
  it.each(['phone', 'desktop'] as const)('offers the shuffled order, on by default, and sends the choice (%s)', async (viewport) => {
    const page = await browser.newPage(viewport, { bypassCSP: true });
    await visit(page, '/', '[data-remote="create"]');
    const option = page.getByLabel('Show the logos in a different order to each voter');
    await expect(option.isChecked()).resolves.toBe(true);
    await page.locator('input[type="file"]').setInputFiles(FOUR_LOGOS.slice(0, 2).map(fixture));
    await expectAccessible(page);
    await shoot(page, `fair-order-option-${viewport}`);

    const created = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    const answer = await created;
    expect(((await answer.json()) as CreatedSession).logoOrder).toBe('shuffled');
  });

  it('sends the fixed order when the creator unticks it', async () => {
    const page = await browser.newPage('desktop', { bypassCSP: true });
    await visit(page, '/', '[data-remote="create"]');
    await page.getByLabel('Show the logos in a different order to each voter').uncheck();
    await page.locator('input[type="file"]').setInputFiles(FOUR_LOGOS.slice(0, 2).map(fixture));
    const created = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    const answer = await created;
    expect(await answer.json()).not.toHaveProperty('logoOrder');
  });
});
