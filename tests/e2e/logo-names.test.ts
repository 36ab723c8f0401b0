import { parse } from 'csv-parse/sync';
import type { CreatedSessionWithCreatorToken } from '@logovote/contracts';
import { VOTER_ORDER_COOKIE, voterLogoOrder } from '@logovote/contracts/voter-order';
import type { Locator, Page } from 'playwright-core';
import { adminCredentials } from '../support/admin';
import { apiVoter, closeVoting, createPoll, visitPollScreen, voteThroughApi } from '../support/polls';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  fixture,
  FOUR_LOGOS,
  shoot,
  useBrowser,
  visit,
  type ViewportName,
} from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

/** The admin's browser: the gateway's credentials; the CSP bypassed so axe can be injected (as in admin-polls.test.ts). */
const ADMIN_BROWSER = { httpCredentials: adminCredentials(), bypassCSP: true };
const LONG_NAME = 'Wave, the long one whose name wraps on a phone';
const texts = (locator: Locator) => locator.allInnerTexts();
const logoIds = (locator: Locator) => locator.evaluateAll((items) => items.map((item) => item.getAttribute('data-logo-id')));

/** Moves the voting page's carousel to `logoId` (the poll is shown in this voter's own order). */
async function showLogo(page: Page, logoId: string, count: number): Promise<void> {
  for (let position = 1; position <= count; position += 1) {
    await page.getByRole('button', { name: `Show logo ${position} of ${count}` }).click();
    if ((await page.getByTestId('current-logo').getAttribute('data-logo-id')) === logoId) return;
  }
  throw new Error(`logo ${logoId} is not in the carousel`);
}

/** The admin list's card of a poll, loading more of the list until it shows (other files create polls meanwhile). */
async function adminCard(page: Page, pollId: string): Promise<Locator> {
  const card = page.locator(`[data-testid="poll-card"][data-poll-id="${pollId}"]`);
  const loadMore = page.getByTestId('load-more-polls');
  while ((await card.count()) === 0 && (await loadMore.count()) > 0) {
    await loadMore.click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="load-more-polls"]')?.hasAttribute('disabled'));
  }
  return card;
}

describe.each<ViewportName>(['phone', 'desktop'])('named logos on a %s', (viewport) => {
  it('are named at upload and shown beside the labels on the confirmation, the results, the CSV, the admin area and the link preview', async () => {
    // The creator names two of three logos; the third keeps its file name.
    const creator = await browser.newPage(viewport);
    await visit(creator, '/', '[data-remote="create"]');
    await creator
      .locator('[data-testid="upload-area"] input[type="file"]')
      .setInputFiles(['logo-ring.png', 'logo-triangle.jpg', 'logo-wave.svg'].map(fixture));
    await expect(Promise.all([1, 2, 3].map((n) => creator.getByLabel(`Name of logo ${n}`).inputValue()))).resolves.toEqual([
      'logo-ring',
      'logo-triangle',
      'logo-wave',
    ]);
    await expect(creator.getByLabel('Name of logo 1').getAttribute('maxlength')).resolves.toBe('60');
    await creator.getByLabel('Name of logo 1').fill('Ring mark');
    await creator.getByLabel('Name of logo 3').fill(LONG_NAME);
    await expectNoHorizontalOverflow(creator);
    await expectAccessible(creator);
    await shoot(creator, `logo-names-create-${viewport}`);
    const created = creator.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
    await creator.getByRole('button', { name: 'Get Votes!' }).click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    const session = (await answer.json()) as CreatedSessionWithCreatorToken;
    expect(session.logos.map((logo) => logo.name)).toEqual(['Ring mark', 'logo-triangle', LONG_NAME]);
    const [ring, triangle, wave] = session.logos.map((logo) => logo.id) as [string, string, string];

    // One vote each: a three-way tie, which ranks in upload order for everyone.
    await voteThroughApi(session.sessionId, ring);
    await voteThroughApi(session.sessionId, wave);
    const voter = await browser.newPage(viewport);
    await visitPollScreen(voter, `/vote/${session.sessionId}`, 'vote');
    await voter.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
    await showLogo(voter, triangle, 3);
    await expect(voter.getByTestId('current-logo').getByRole('img').getAttribute('alt')).resolves.toBe('logo-triangle');
    await voter.getByTestId('vote-button').click();
    await voter.getByRole('button', { name: 'Voted!' }).waitFor({ timeout: 15_000 });
    await voter.getByRole('button', { name: 'Done' }).click();
    const done = voter.getByRole('dialog', { name: 'Thank you for your vote!' });
    await expect(done.getByTestId('done-voted-name').innerText()).resolves.toBe('You voted for: logo-triangle');
    await expectAccessible(voter);
    await shoot(voter, `logo-names-done-${viewport}`);
    await done.getByRole('button', { name: 'Close' }).click();

    // Back later: the confirmation screen keeps the spec's text and image, the name below.
    await visitPollScreen(voter, `/vote/${session.sessionId}`, 'vote');
    const confirmation = voter.getByTestId('vote-confirmation');
    await confirmation.waitFor({ timeout: 15_000 });
    await confirmation.getByText('You voted for:').waitFor();
    await expect(confirmation.getByTestId('voted-logo-name').innerText()).resolves.toBe('logo-triangle');
    await expectNoHorizontalOverflow(voter);
    await expectAccessible(voter);
    await shoot(voter, `logo-names-confirmation-${viewport}`);

    // Results: the spec's labels as titles, in upload order for the tie, each name below its label and as its image's name.
    const results = await browser.newPage(viewport);
    await visitPollScreen(results, `/results/${session.sessionId}`, 'results');
    const cards = results.getByTestId('result-card');
    await expect(results.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 3');
    await expect(texts(cards.locator('h2'))).resolves.toEqual(['Logo A', 'Logo B', 'Logo C']);
    await expect(logoIds(cards)).resolves.toEqual([ring, triangle, wave]);
    await expect(texts(results.getByTestId('result-logo-name'))).resolves.toEqual(['Ring mark', 'logo-triangle', LONG_NAME]);
    await expect(cards.first().getByRole('img', { name: 'Ring mark', exact: true }).count()).resolves.toBe(1);
    await expectNoHorizontalOverflow(results);
    await expectAccessible(results);
    await shoot(results, `logo-names-results-${viewport}`);

    // The CSV (the creator's): the same order, the name in its column after the six first.
    const csv = await fetch(`${gatewayUrl}/api/sessions/${session.sessionId}/results.csv`, {
      headers: { 'X-Creator-Token': session.creatorToken },
    });
    const rows = parse(Buffer.from(await csv.arrayBuffer()), { bom: true }) as string[][];
    expect(rows[0]![6]).toBe('Logo name');
    expect(rows.slice(1, 4).map((row) => [row[0], row[1], row[2], row[6]])).toEqual([
      ['Logo A', 'logo-ring.png', '1', 'Ring mark'],
      ['Logo B', 'logo-triangle.jpg', '1', 'logo-triangle'],
      ['Logo C', 'logo-wave.svg', '1', LONG_NAME],
    ]);

    // The link preview's image description names the logos.
    const html = await (await fetch(`${gatewayUrl}/vote/${session.sessionId}`)).text();
    expect(html).toContain(
      `<meta property="og:image:alt" content="The 3 logos of this LogoVote poll: Ring mark, logo-triangle, and ${LONG_NAME}" />`,
    );

    // The admin's detail panel: each logo's name above its file name.
    const admin = await browser.newPage(viewport, ADMIN_BROWSER);
    await visit(admin, '/admin/polls', '[data-remote="admin"]');
    await admin.getByRole('heading', { level: 1, name: 'Poll Management' }).waitFor();
    await (await adminCard(admin, session.sessionId)).getByRole('button').click();
    const details = admin.getByTestId('poll-details');
    await details.waitFor();
    await expect(texts(details.getByTestId('detail-logo-given-name'))).resolves.toEqual(['Ring mark', 'logo-triangle', LONG_NAME]);
    await expect(texts(details.getByTestId('detail-logo-name'))).resolves.toEqual(['logo-ring.png', 'logo-triangle.jpg', 'logo-wave.svg']);
    await expectNoHorizontalOverflow(admin);
    await expectAccessible(admin);
    await shoot(admin, `logo-names-admin-${viewport}`);
  });
});

describe('ties', () => {
  it("rank in upload order for every voter of a closed poll shown in each voter's own order", async () => {
    const names = ['Ring', 'Triangle', 'Diamond', 'Wave'];
    const session = (await createPoll({ logos: FOUR_LOGOS, logoNames: names, logoOrder: 'shuffled' })) as CreatedSessionWithCreatorToken;
    const ids = session.logos.map((logo) => logo.id);
    // Two logos tied ahead, two tied at none.
    const voters = await apiVoter(session.sessionId);
    for (const logoId of [ids[3]!, ids[1]!]) expect((await voters.vote(logoId)).status).toBe(200);
    await closeVoting(session);

    const voterOrders: string[][] = [];
    for (const [index, viewport] of (['phone', 'desktop', 'phone', 'desktop'] as const).entries()) {
      const page = await browser.newPage(viewport);
      await visitPollScreen(page, `/vote/${session.sessionId}`, 'vote');
      await page.waitForSelector('[data-remote="vote"][data-phase="closed"]', { timeout: 15_000 });
      const seed = (await page.context().cookies()).find((cookie) => cookie.name === VOTER_ORDER_COOKIE)?.value ?? '';
      voterOrders.push(voterLogoOrder(session.sessionId, seed, ids));
      const results = page.getByTestId('final-result');
      await expect(logoIds(results)).resolves.toEqual([ids[1], ids[3], ids[0], ids[2]]);
      await expect(texts(results.locator('h2'))).resolves.toEqual(['Logo A', 'Logo B', 'Logo C', 'Logo D']);
      await expect(texts(page.getByTestId('final-logo-name'))).resolves.toEqual(['Triangle', 'Wave', 'Ring', 'Diamond']);
      if (index < 2) {
        await expectNoHorizontalOverflow(page);
        await shoot(page, `logo-names-closed-${viewport}`);
      }
    }
    // The voters were shown the logos in orders of their own: the ranking did not follow any of them.
    expect(new Set(voterOrders.map((order) => order.join())).size).toBeGreaterThan(1);
  });
});
