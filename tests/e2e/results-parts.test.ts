/**
 * Who sees which part of the results (docs/results-visibility.md, "Who sees which part"): a voter of a poll shown
 * to voters once they have voted sees the counts, the verdict and the reasons, but neither the per-channel
 * breakdown nor 'Export CSV' (the server refuses both to it); the creator, on the same poll, sees them all.
 */
import type { CreatedSessionWithCreatorToken } from '@logovote/contracts';
import { CREATOR_ONLY } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { apiVoter, createPoll, randomFingerprint, visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, shoot, useBrowser, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

/** Votes through the API (a channel's link for each), and one reason, as other voters would. */
async function seedVotes(session: CreatedSessionWithCreatorToken): Promise<void> {
  const [instagram, newsletter] = session.channels!;
  const voter = await apiVoter(session.sessionId);
  for (const [logo, via] of [
    [0, instagram!.id],
    [0, instagram!.id],
    [1, newsletter!.id],
  ] as const) {
    expect((await voter.vote(session.logos[logo]!.id, randomFingerprint(), undefined, via)).status).toBe(200);
  }
  const fingerprint = randomFingerprint();
  expect((await voter.vote(session.logos[0]!.id, fingerprint)).status).toBe(200);
  expect((await voter.giveReason('Reads well on a paper bag', fingerprint)).status).toBe(200);
}

async function openResults(page: Page, path: string): Promise<void> {
  await visitPollScreen(page, path, 'results');
  await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
  await page.getByTestId('reason').first().waitFor({ timeout: 15_000 });
}

describe('the parts of the results page', () => {
  it.each(['phone', 'desktop'] as const)(
    'a voter sees the counts and reasons without the channels or the CSV; the creator sees them all (%s)',
    async (viewport: ViewportName) => {
      const session = await createPoll({
        logos: ['logo-ring.png', 'logo-wave.svg'],
        logoNames: ['Wheat ear', 'Croissant'],
        feedbackPrompt: 'Which logo for the bakery?',
        channels: ['Instagram', 'Newsletter'],
        resultsVisibility: 'after-vote',
        // Every test voter comes from one address.
        sharedNetwork: true,
      });
      await seedVotes(session);

      // A voter, through Instagram's link, votes in the browser and opens the results.
      const voter = await browser.newPage(viewport, { bypassCSP: true });
      await visitPollScreen(voter, `/vote/${session.sessionId}?via=${session.channels![0]!.id}`, 'vote');
      const voted = voter.waitForResponse((res) => res.url().endsWith(`/api/sessions/${session.sessionId}/vote`));
      await voter.getByTestId('vote-button').click();
      expect((await voted).status()).toBe(200);
      await openResults(voter, `/results/${session.sessionId}`);
      await expect(voter.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 5');
      await expect(voter.getByTestId('reason').locator('q').allInnerTexts()).resolves.toContain('Reads well on a paper bag');
      await expect(voter.getByTestId('channel-results').count()).resolves.toBe(0);
      await expect(voter.getByRole('link', { name: 'Export CSV' }).count()).resolves.toBe(0);
      await expect(voter.getByText('Export CSV').count()).resolves.toBe(0);
      // The server refuses the voter's export and channels outright, with a JSON message.
      for (const [path, message] of [
        ['results.csv', CREATOR_ONLY.export],
        ['channels', CREATOR_ONLY.channels],
      ] as const) {
        const refused = await voter.request.get(`${gatewayUrl}/api/sessions/${session.sessionId}/${path}`);
        expect(refused.status()).toBe(403);
        expect(refused.headers()['content-type']).toMatch(/^application\/json/);
        expect(await refused.json()).toEqual({ message });
      }
      await expectAccessible(voter);
      await expectNoHorizontalOverflow(voter);
      await shoot(voter, `results-parts-voter-${viewport}`);

      // The creator (the manage link) sees the channels and 'Export CSV', and the export downloads.
      const creator = await browser.newPage(viewport, { bypassCSP: true, acceptDownloads: true });
      await openResults(creator, `/results/${session.sessionId}#manage=${session.creatorToken}`);
      await creator.getByTestId('channel-results').waitFor({ timeout: 15_000 });
      await expect(creator.getByTestId('channel-group').locator('h3').allInnerTexts()).resolves.toEqual([
        'Instagram',
        'Newsletter',
        'Other / direct link',
      ]);
      const exportLink = creator.getByRole('link', { name: 'Export CSV' });
      await exportLink.waitFor({ timeout: 15_000 });
      const downloading = creator.waitForEvent('download');
      await exportLink.click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`logovote-results-${session.sessionId}.csv`);
      await expectAccessible(creator);
      await expectNoHorizontalOverflow(creator);
      await creator.getByTestId('channel-results').scrollIntoViewIfNeeded();
      await shoot(creator, `results-parts-creator-${viewport}`);
      await voter.close();
      await creator.close();
    },
  );
});
