import type { CreatedSessionWithCreatorToken } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { voteThroughApi, visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, expectToast, fixture, shoot, useBrowser, visit } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const phase = (page: Page) => page.locator('[data-remote="results"]').getAttribute('data-phase');

/** Opens the results page and waits for it to show a state other than loading. */
async function openResults(page: Page, sessionId: string): Promise<Page> {
  await visitPollScreen(page, `/results/${sessionId}`, 'results');
  await page.waitForSelector('[data-remote="results"]:not([data-phase="loading"])', { timeout: 15_000 });
  return page;
}

describe('results shown when voting closes', () => {
  it('the creator chooses it, sees the results live; a voter sees the notice until the creator closes voting', async () => {
    // The creator, on a desktop, hides the results until voting closes.
    const creator = await browser.newPage('desktop');
    await visit(creator, '/', '[data-remote="create"]');
    await creator.locator('[data-testid="upload-area"] input[type="file"]').setInputFiles(['logo-ring.png', 'logo-wave.svg'].map(fixture));
    await creator.getByRole('radio', { name: 'Everyone, once voting closes' }).check();
    await shoot(creator, 'results-visibility-create-desktop');
    const created = creator.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
    await creator.getByRole('button', { name: 'Get Votes!' }).click();
    const session = (await (await created).json()) as CreatedSessionWithCreatorToken & { resultsVisibility?: string };
    expect(session.resultsVisibility).toBe('after-close');
    await creator.waitForSelector('[data-testid="creation-dialog"][data-step="plan"]', { timeout: 20_000 });
    const [ring, wave] = session.logos.map((logo) => logo.id) as [string, string];
    await voteThroughApi(session.sessionId, wave);
    await voteThroughApi(session.sessionId, ring);

    // A voter, on a phone, votes on the voting page; its confirmation's 'View all results' shows the notice.
    const voter = await browser.newPage('phone');
    await visitPollScreen(voter, `/vote/${session.sessionId}`, 'vote');
    await voter.getByTestId('vote-button').click();
    await voter.getByTestId('vote-button').filter({ hasText: 'Voted!' }).waitFor({ timeout: 15_000 });
    await visitPollScreen(voter, `/vote/${session.sessionId}`, 'vote');
    await voter.getByRole('link', { name: 'View all results' }).click();
    await voter.waitForSelector('[data-remote="results"]:not([data-phase="loading"])', { timeout: 15_000 });
    await expect(phase(voter)).resolves.toBe('withheld');
    await voter.getByRole('heading', { name: 'Results are shown when voting closes' }).waitFor();
    await expect(voter.getByTestId('vote-count').count()).resolves.toBe(0);
    await expect(voter.getByTestId('total-votes').count()).resolves.toBe(0);
    await expectAccessible(voter);
    await expectNoHorizontalOverflow(voter);
    await shoot(voter, 'results-visibility-withheld-phone');

    // The creator's results page shows the counts, and follows new votes live (its results pass).
    await openResults(creator, session.sessionId);
    await expect(phase(creator)).resolves.toBe('results');
    await expect(creator.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 3');
    await expect(creator.getByTestId('results-visibility-note').innerText()).resolves.toBe(
      'Visitors see these results only when voting closes.',
    );
    await voteThroughApi(session.sessionId, wave);
    await creator.getByTestId('total-votes').filter({ hasText: 'Total votes: 4' }).waitFor({ timeout: 15_000 });
    const csv = await creator.request.get(`${gatewayUrl}/api/sessions/${session.sessionId}/results.csv`);
    expect(csv.status()).toBe(200);
    expect(await voter.request.get(`${gatewayUrl}/api/sessions/${session.sessionId}/results.csv`).then((res) => res.status())).toBe(403);
    await expectAccessible(creator);
    await shoot(creator, 'results-visibility-creator-desktop');

    // The creator closes voting: the voter now sees the results.
    await creator.getByTestId('voting-controls').getByRole('button', { name: 'Close voting' }).click();
    await creator.getByTestId('voting-state-dialog').getByRole('button', { name: 'Close voting' }).click();
    await expectToast(creator, 'Voting closed');
    await openResults(voter, session.sessionId);
    await expect(phase(voter)).resolves.toBe('results');
    await expect(voter.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 4');
    await expect(voter.getByTestId('vote-count').count()).resolves.toBe(2);
    await expect(voter.getByTestId('results-visibility-note').innerText()).resolves.toBe(
      'Voting has closed, so everyone sees these results.',
    );
    await expectNoHorizontalOverflow(voter);
    await shoot(voter, 'results-visibility-closed-phone');
  });
});

describe('results shown to voters after they vote', () => {
  it.each(['phone', 'desktop'] as const)('a visitor sees the notice, and the results once it has voted (%s)', async (viewport) => {
    const form = new FormData();
    for (const name of ['logo-ring.png', 'logo-wave.svg']) {
      const file = fixture(name);
      form.append('logos', new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
    }
    form.append('feedbackPrompt', 'Which one would you trust?');
    form.append('resultsVisibility', 'after-vote');
    const session = (await (
      await fetch(`${gatewayUrl}/api/sessions`, { method: 'POST', body: form })
    ).json()) as CreatedSessionWithCreatorToken;
    await voteThroughApi(session.sessionId, session.logos[1]!.id);

    const visitor = await openResults(await browser.newPage(viewport), session.sessionId);
    await expect(phase(visitor)).resolves.toBe('withheld');
    await visitor.getByRole('heading', { name: 'Results are shown after you vote' }).waitFor();
    await expectAccessible(visitor);
    await expectNoHorizontalOverflow(visitor);
    await shoot(visitor, `results-visibility-after-vote-notice-${viewport}`);

    await visitor.getByRole('link', { name: 'Vote now' }).click();
    await visitor.getByTestId('vote-button').click();
    await visitor.getByTestId('vote-button').filter({ hasText: 'Voted!' }).waitFor({ timeout: 15_000 });
    await openResults(visitor, session.sessionId);
    await expect(phase(visitor)).resolves.toBe('results');
    await expect(visitor.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 2');
    await expect(visitor.getByTestId('results-visibility-note').innerText()).resolves.toBe(
      'Visitors see these results only after they have voted.',
    );
    await shoot(visitor, `results-visibility-after-vote-results-${viewport}`);
  });
});
