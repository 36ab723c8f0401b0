import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { CreatedSession, ProofRequired, ReasonResponse, SessionView } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { createPoll, randomFingerprint, visitPollScreen } from '../support/polls';
import { solveVoteChallenge } from '../support/proof-of-work';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, shoot, useBrowser, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();
const TOUCH_PHONE = { hasTouch: true, isMobile: true };

const openDevice = (viewport: ViewportName) => browser.newPage(viewport, { bypassCSP: true, ...(viewport === 'phone' ? TOUCH_PHONE : {}) });

/** A visitor without a browser who votes for `logoId` and gives `reason` (when one), as the voting page would. */
async function voteWithReason(sessionId: string, logoId: string, reason?: string): Promise<void> {
  const lookup = await fetch(`${gatewayUrl}/api/sessions/${sessionId}`);
  const { csrfToken } = (await lookup.json()) as SessionView;
  const headers = {
    'Content-Type': 'application/json',
    'X-CSRF-Token': csrfToken ?? '',
    'X-Client-Fingerprint': randomFingerprint(),
    Cookie: lookup.headers
      .getSetCookie()
      .map((header) => header.split(';')[0])
      .join('; '),
  };
  const post = (proof?: string) =>
    fetch(`${gatewayUrl}/api/sessions/${sessionId}/vote`, {
      method: 'POST',
      headers: { ...headers, ...(proof ? { 'X-Vote-Proof': proof } : {}) },
      body: JSON.stringify({ logoId }),
    });
  let voted = await post();
  // Every test voter comes from one address: beyond a household's few, a vote needs a proof of work.
  if (voted.status === 428) voted = await post(await solveVoteChallenge(((await voted.json()) as ProofRequired).challenge));
  expect(voted.status).toBe(200);
  if (reason === undefined) return;
  const given = await fetch(`${gatewayUrl}/api/sessions/${sessionId}/reason`, { method: 'PUT', headers, body: JSON.stringify({ reason }) });
  expect(given.status).toBe(200);
  expect(((await given.json()) as ReasonResponse).logoId).toBe(logoId);
}

/** Votes in the browser for the logo at `index`, through the dots, and waits for 'Voted!'. */
async function voteInBrowser(page: Page, session: CreatedSession, index: number): Promise<void> {
  await page.getByRole('button', { name: `Show logo ${index + 1} of ${session.logos.length}` }).click();
  await page.waitForSelector(`[data-testid="current-logo"][data-logo-id="${session.logos[index]!.id}"]`);
  await page.getByTestId('vote-button').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="vote-button"]')?.textContent?.trim() === 'Voted!');
}

async function openVoting(session: CreatedSession, viewport: ViewportName): Promise<Page> {
  const page = await openDevice(viewport);
  await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
  await page.waitForSelector('[data-remote="vote"]:not([data-phase="loading"])', { timeout: 15_000 });
  return page;
}

/** Layout shifts the page had that no input caused (what CLS adds up). */
const unexpectedLayoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 200);
      }),
  );

describe("'Why this one?' on the voting page", () => {
  it.each(['phone', 'desktop'] as const)('offers an optional one-line reason after a vote, with a counter, on a %s', async (viewport) => {
    const session = await createPoll();
    const page = await openVoting(session, viewport);
    await expect(page.getByTestId('reason-box').count()).resolves.toBe(0);

    await voteInBrowser(page, session, 1);
    await page.getByRole('button', { name: 'Done' }).waitFor();
    const input = page.getByLabel('Why this one? (optional)');
    await input.fill('The shape is simple and bold');
    await expect(page.getByTestId('reason-count').innerText()).resolves.toBe('28/140');
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    await shoot(page, `reasons-vote-input-${viewport}`);

    // Too long: the counter says so and nothing is sent.
    await input.fill('x'.repeat(141));
    await expect(page.getByTestId('reason-count').innerText()).resolves.toBe('141/140');
    await expect(page.getByTestId('reason-send').getAttribute('aria-disabled')).resolves.toBe('true');

    await input.fill('This shit looks great, honestly');
    const sent = page.waitForResponse((res) => res.url().endsWith(`/api/sessions/${session.sessionId}/reason`));
    await page.getByTestId('reason-send').click();
    expect((await sent).status()).toBe(200);
    const thanks = await page.getByTestId('reason-sent').innerText();
    expect(thanks).toMatch(/^Thanks for telling us why: “This s\*+ looks great, honestly”$/);
    await shoot(page, `reasons-vote-sent-${viewport}`);

    // The spec's texts are where they were: 'Done' and its dialog.
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByRole('dialog').innerText()).resolves.toContain('Thank you for your vote!');
  });

  it('keeps a pasted reason on one line, and says why a reason is refused', async () => {
    const session = await createPoll();
    const page = await openVoting(session, 'desktop');
    await voteInBrowser(page, session, 0);
    const input = page.getByLabel('Why this one? (optional)');
    await input.fill('first line\nsecond line');
    await expect(input.inputValue()).resolves.not.toContain('\n');
    // Hostile text is sent and shown as text.
    await input.fill('<img src=x onerror="document.title=1"> nice');
    await page.getByTestId('reason-send').click();
    await expect(page.getByTestId('reason-sent').innerText()).resolves.toContain('<img src=x onerror="document.title=1"> nice');
    await expect(page.title()).resolves.not.toBe('1');

    // After a reload: the confirmation screen shows the reason given, to edit; the edit replaces it.
    await page.reload();
    await page.waitForSelector('[data-remote="vote"][data-phase="confirmation"]', { timeout: 15_000 });
    const again = page.getByLabel('Why this one? (optional)');
    await expect(again.inputValue()).resolves.toBe('<img src=x onerror="document.title=1"> nice');
    await again.fill('Again');
    await page.getByTestId('reason-send').click();
    await expect(page.getByTestId('reason-sent').innerText()).resolves.toBe('Thanks for telling us why: “Again”');
  });

  it.each(['phone', 'desktop'] as const)('is offered on the confirmation screen on a %s, below the spec texts', async (viewport) => {
    const session = await createPoll();
    const first = await openVoting(session, viewport);
    await voteInBrowser(first, session, 0);
    await first.reload();
    await first.waitForSelector('[data-remote="vote"][data-phase="confirmation"]', { timeout: 15_000 });
    const confirmation = await first.getByTestId('vote-confirmation').innerText();
    expect(confirmation).toContain('Vote submitted!');
    expect(confirmation).not.toContain('Why this one?');
    await first.getByLabel('Why this one? (optional)').fill('Warm colours');
    await first.getByTestId('reason-send').click();
    await first.getByTestId('reason-sent').waitFor();
    await expectAccessible(first);
    await shoot(first, `reasons-confirmation-${viewport}`);
  });
});

describe('reasons on the results page, and the CSV export', () => {
  it.each(['phone', 'desktop'] as const)(
    "lists the newest reasons under each logo, opens them in place with 'Show all' and 'Show more', without moving the page, on a %s",
    async (viewport) => {
      const session = await createPoll();
      const [first, second] = session.logos;
      for (let n = 0; n < 12; n++) await voteWithReason(session.sessionId, first!.id, `Reason ${n} for the first`);
      await voteWithReason(session.sessionId, second!.id, '=cmd|"/c calc"!A0 <b>not bold</b>');
      await voteWithReason(session.sessionId, second!.id);

      const page = await openDevice(viewport);
      await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
      const card = (logoId: string) => page.locator(`[data-testid="result-card"][data-logo-id="${logoId}"]`);
      // Each card reads its own reasons: they arrive in any order.
      await card(first!.id).getByTestId('reason').first().waitFor({ timeout: 15_000 });
      await card(second!.id).getByTestId('reason').first().waitFor({ timeout: 15_000 });
      await card(session.logos[2]!.id).getByText('No reasons given yet.').waitFor({ timeout: 15_000 });
      const shown = () => card(first!.id).getByTestId('reason').locator('q').allInnerTexts();
      await expect(shown()).resolves.toEqual(Array.from({ length: 3 }, (_, i) => `Reason ${11 - i} for the first`));
      await expect(card(second!.id).getByTestId('reason').locator('q').allInnerTexts()).resolves.toEqual([
        '=cmd|"/c calc"!A0 <b>not bold</b>',
      ]);
      await expect(card(session.logos[2]!.id).getByTestId('reasons').innerText()).resolves.toContain('No reasons given yet.');
      expect(await unexpectedLayoutShift(page)).toBe(0);
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `reasons-results-${viewport}`);

      // More than the first page exists: the count is not known yet.
      await card(first!.id).getByRole('button', { name: 'Show all', exact: true }).click();
      await expect(shown()).resolves.toEqual(Array.from({ length: 10 }, (_, i) => `Reason ${11 - i} for the first`));
      await card(first!.id).getByRole('button', { name: 'Show more' }).click();
      await page.waitForFunction(
        (logoId) => document.querySelectorAll(`[data-logo-id="${logoId}"] [data-testid="reason"]`).length === 12,
        first!.id,
      );
      await expect(shown()).resolves.toEqual(Array.from({ length: 12 }, (_, i) => `Reason ${11 - i} for the first`));
      await expect(card(first!.id).getByRole('button', { name: 'Show more' }).count()).resolves.toBe(0);
      await shoot(page, `reasons-results-more-${viewport}`);
    },
  );

  it('downloads the results and reasons as CSV from the creator’s results page', async () => {
    const session = await createPoll();
    const [first, second] = session.logos;
    await voteWithReason(session.sessionId, second!.id, 'Crisp, "modern"');
    await voteWithReason(session.sessionId, second!.id, '@SUM(1+1)');
    await voteWithReason(session.sessionId, first!.id, 'Friendly');

    const page = await browser.newPage('desktop', { acceptDownloads: true });
    // The creator's manage link (docs/closing.md): the export is the creator's only (docs/results-visibility.md).
    await visitPollScreen(page, `/results/${session.sessionId}#manage=${session.creatorToken}`, 'results');
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`logovote-results-${session.sessionId}.csv`);
    const path = await download.path();
    const rows = parse(await readFile(path), { bom: true }) as string[][];
    const names = session.logos.map((logo) => logo.originalName);
    expect(rows.map((row) => row.slice(0, 5))).toEqual([
      ['Logo', 'Original file name', 'Votes', 'Percent of total votes', 'Reason'],
      ['Logo A', names[1], '2', '67', ''],
      ['Logo B', names[0], '1', '33', ''],
      ...names.slice(2).map((name, i) => [`Logo ${String.fromCharCode(67 + i)}`, name, '0', '0', '']),
      ['Logo A', names[1], '', '', "'@SUM(1+1)"],
      ['Logo A', names[1], '', '', 'Crisp, "modern"'],
      ['Logo B', names[0], '', '', 'Friendly'],
    ]);
    // The page shows the same labels and percentages.
    const card = page.locator(`[data-testid="result-card"][data-logo-id="${second!.id}"]`);
    await expect(card.locator('h2').innerText()).resolves.toBe('Logo A');
    await expect(card.getByTestId('vote-percent').innerText()).resolves.toBe('67% of total votes');
  });
});
