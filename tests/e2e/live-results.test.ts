/**
 * Live results (docs/live-results.md): the results page follows the poll's event stream through the gateway
 * and shows votes as they arrive, without a reload; when the stream cannot be had, it stays the plain page,
 * silently.
 */
import type { CreatedSession } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { createPoll, visitPollScreen, voteThroughApi } from '../support/polls';
import { expectNoHorizontalOverflow, shoot, toast, useBrowser, type ViewportName } from '../support/web';

const browser = useBrowser();

/** The results page under the gateway's real Content-Security-Policy, with whatever it reports as an error. */
async function openResults(session: CreatedSession, viewport: ViewportName, prepare?: (page: Page) => Promise<void>) {
  const page = await browser.newPage(viewport, viewport === 'phone' ? { hasTouch: true, isMobile: true } : {});
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  await prepare?.(page);
  await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
  await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
  return { page, errors };
}

const totalVotes = (page: Page) => page.getByTestId('total-votes').innerText();
const shownTotal = (page: Page, total: number) =>
  page.waitForFunction((text) => document.querySelector('[data-testid="total-votes"]')?.textContent === text, `Total votes: ${total}`, {
    timeout: 15_000,
  });

describe('live results', () => {
  it.each(['desktop', 'phone'] as const)('show votes as they arrive, without a reload, on a %s', async (viewport) => {
    const session = await createPoll();
    const ids = session.logos.map((logo) => logo.id);
    let streamOpened!: Promise<unknown>;
    const { page, errors } = await openResults(session, viewport, async (opening) => {
      streamOpened = opening.waitForResponse((res) => res.url().endsWith(`/api/sessions/${session.sessionId}/live`), { timeout: 15_000 });
    });
    const stream = (await streamOpened) as { status(): number; headers(): Record<string, string> };
    expect(stream.status()).toBe(200);
    expect(stream.headers()['content-type']).toBe('text/event-stream; charset=utf-8');
    await expect(totalVotes(page)).resolves.toBe('Total votes: 0');
    await shoot(page, `live-results-before-${viewport}`);
    const reloads: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloads.push(frame.url());
    });

    await voteThroughApi(session.sessionId, ids[2]!);
    await shownTotal(page, 1);
    await voteThroughApi(session.sessionId, ids[2]!);
    await voteThroughApi(session.sessionId, ids[0]!);
    await shownTotal(page, 3);
    const cards = await page.getByTestId('result-card').evaluateAll((items) =>
      items.map((item) => ({
        logoId: item.getAttribute('data-logo-id'),
        votes: item.querySelector('[data-testid="vote-count"]')?.textContent,
        percent: item.querySelector('[data-testid="vote-percent"]')?.textContent,
        winner: item.querySelector('[data-testid="winner-badge"]') !== null,
      })),
    );
    expect(cards).toEqual([
      { logoId: ids[2], votes: '2 votes', percent: '67% of total votes', winner: true },
      { logoId: ids[0], votes: '1 vote', percent: '33% of total votes', winner: false },
      { logoId: ids[1], votes: '0 votes', percent: '0% of total votes', winner: false },
      { logoId: ids[3], votes: '0 votes', percent: '0% of total votes', winner: false },
    ]);
    expect(reloads).toEqual([]);
    expect(errors).toEqual([]);
    await expectNoHorizontalOverflow(page);
    await shoot(page, `live-results-after-${viewport}`);
  });

  it('keeps the plain results page, without a message, when the stream is blocked', async () => {
    const session = await createPoll();
    let attempts = 0;
    const { page, errors } = await openResults(session, 'desktop', async (opening) => {
      await opening.route('**/api/sessions/*/live', async (route) => {
        attempts += 1;
        await route.abort('failed');
      });
    });
    // The page tries again a few times, a while apart, then stays as it is.
    for (let waited = 0; attempts < 3 && waited < 30_000; waited += 250) await page.waitForTimeout(250);
    expect(attempts).toBe(3);
    await voteThroughApi(session.sessionId, session.logos[1]!.id);
    await page.waitForTimeout(10_000);
    expect(attempts).toBe(3);
    await expect(totalVotes(page)).resolves.toBe('Total votes: 0');
    await expect(page.getByTestId('result-card').count()).resolves.toBe(4);
    await expect(toast(page).count()).resolves.toBe(0);
    expect(errors.filter((error) => !error.includes('/live'))).toEqual([]);
    expect(errors.length).toBeLessThanOrEqual(attempts);
    await shoot(page, 'live-results-blocked-desktop');

    await page.reload();
    await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
    await expect(totalVotes(page)).resolves.toBe('Total votes: 1');
  });
});
