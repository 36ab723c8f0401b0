/**
 * The admin's search and a poll's details beyond the spec (docs/admin.md): found by a word of the question, a
 * logo's name or the id, on a phone and a desktop; the details say whether voting is open, who sees the
 * results, the channels' votes, the voters' reasons, and link the public results page.
 */
import type { CreatedSessionWithCreatorToken } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { adminCredentials, deleteAdminPoll } from '../support/admin';
import { apiVoter, closeVoting, createPoll, randomFingerprint } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, shoot, useBrowser, visit, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();
const ADMIN_BROWSER = { httpCredentials: adminCredentials(), timezoneId: 'Europe/Berlin', locale: 'en-US', bypassCSP: true };

/** A word no other test file puts in a question, so the search finds this file's polls only. */
const WORD = `Kornblume${randomFingerprint().slice(0, 6)}`;
let bakery: CreatedSessionWithCreatorToken;
let cafe: CreatedSessionWithCreatorToken;

beforeAll(async () => {
  bakery = await createPoll({
    logos: ['logo-ring.png', 'logo-wave.svg'],
    logoNames: ['Wheat ear', 'Croissant'],
    feedbackPrompt: `Which logo for the ${WORD} bakery?`,
    channels: ['Instagram', 'Newsletter'],
    resultsVisibility: 'after-vote',
    sharedNetwork: true,
  });
  cafe = await createPoll({ logos: ['logo-square.png', 'logo-triangle.jpg'], logoNames: ['Cup', 'Bean'], feedbackPrompt: `${WORD} café` });
  const voter = await apiVoter(bakery.sessionId);
  const [instagram, newsletter] = bakery.channels!;
  for (const via of [instagram!.id, instagram!.id, newsletter!.id]) {
    expect((await voter.vote(bakery.logos[0]!.id, randomFingerprint(), undefined, via)).status).toBe(200);
  }
  const fingerprint = randomFingerprint();
  expect((await voter.vote(bakery.logos[1]!.id, fingerprint)).status).toBe(200);
  expect((await voter.giveReason('Too pale on white paper', fingerprint)).status).toBe(200);
  await closeVoting(bakery);
});

afterAll(async () => {
  for (const poll of [bakery, cafe]) await deleteAdminPoll(poll.sessionId);
});

async function openAdmin(viewport: ViewportName): Promise<Page> {
  const page = await browser.newPage(viewport, ADMIN_BROWSER);
  await visit(page, '/admin/polls', '[data-remote="admin"]');
  await page.getByRole('heading', { level: 1, name: 'Poll Management' }).waitFor();
  return page;
}

async function search(page: Page, text: string): Promise<string[]> {
  const answered = page.waitForResponse(
    (res) => new URL(res.url()).pathname === '/api/admin/polls' && new URL(res.url()).searchParams.has('q'),
  );
  await page.getByRole('searchbox', { name: 'Search polls' }).fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  expect((await answered).status()).toBe(200);
  await page.getByTestId('search-outcome').filter({ hasNotText: 'Searching...' }).waitFor();
  return page.locator('[data-testid="poll-card"]').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-poll-id') ?? ''));
}

describe('the admin’s search and a poll’s details', () => {
  it.each(['phone', 'desktop'] as const)('finds polls by question, logo name and id, and shows the details (%s)', async (viewport) => {
    const page = await openAdmin(viewport);

    await expect(search(page, WORD.toLowerCase())).resolves.toEqual([cafe.sessionId, bakery.sessionId]);
    await expect(page.getByTestId('search-outcome').innerText()).resolves.toBe(`2 polls match “${WORD.toLowerCase()}”.`);
    await expect(search(page, `${WORD} croiss`)).resolves.toEqual([bakery.sessionId]);
    await expect(search(page, `${gatewayUrl}/vote/${cafe.sessionId}`)).resolves.toEqual([cafe.sessionId]);
    await expect(search(page, `${WORD} zeppelin`)).resolves.toEqual([]);
    await expect(page.getByTestId('search-outcome').innerText()).resolves.toBe(`No polls match “${WORD} zeppelin”.`);
    await expect(search(page, `${WORD} wheat`)).resolves.toEqual([bakery.sessionId]);
    await expectNoHorizontalOverflow(page);
    await shoot(page, `admin-search-${viewport}`);

    await page.locator(`[data-testid="poll-card"][data-poll-id="${bakery.sessionId}"]`).getByRole('button').click();
    const details = page.getByTestId('poll-details');
    await details.getByTestId('poll-activity').waitFor({ timeout: 15_000 });
    await expect(details.getByTestId('poll-voting-state').innerText()).resolves.toMatch(/^Closed on /);
    await expect(details.getByTestId('poll-results-visibility').innerText()).resolves.toBe(
      'Voters, once they have voted (everyone while closed)',
    );
    await expect(details.getByTestId('admin-channel').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Instagram\s+2 votes\s+Wheat ear: 2 · Croissant: 0$/),
      expect.stringMatching(/^Newsletter\s+1 vote\s+Wheat ear: 1 · Croissant: 0$/),
      expect.stringMatching(/^Other \/ direct link\s+1 vote\s+Wheat ear: 0 · Croissant: 1$/),
    ]);
    await expect(details.getByTestId('admin-reason').locator('q').allInnerTexts()).resolves.toEqual(['Too pale on white paper']);
    await expect(details.getByTestId('poll-results-link').getAttribute('href')).resolves.toBe(
      `${new URL(bakery.resultsUrl).origin}/results/${bakery.sessionId}`,
    );
    const csv = await page.request.get(`${gatewayUrl}/api/admin/polls/${bakery.sessionId}/results.csv`);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('Too pale on white paper');
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    await details.getByTestId('poll-activity').scrollIntoViewIfNeeded();
    await shoot(page, `admin-details-${viewport}`);

    // Emptied, the search gives the whole list back.
    await page.getByRole('searchbox', { name: 'Search polls' }).fill('');
    await page.getByTestId('search-outcome').waitFor({ state: 'detached' });
    await page.getByTestId('poll-count').waitFor();
    await page.close();
  });
});
