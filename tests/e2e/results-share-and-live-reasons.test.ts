/**
 * The results page of a poll without votes asks for the voting link to be shared (copy and QR code right
 * there), and the reasons under the cards arrive live with the counts (docs/reasons.md, docs/live-results.md).
 */
import type { CreatedSession } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { apiVoter, createPoll, randomFingerprint, visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectNoHorizontalOverflow, expectToast, shoot, useBrowser, type ViewportName } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

async function openResults(session: CreatedSession, viewport: ViewportName) {
  const page = await browser.newPage(viewport, {
    bypassCSP: true,
    permissions: ['clipboard-read', 'clipboard-write'],
    ...(viewport === 'phone' ? { hasTouch: true, isMobile: true } : {}),
  });
  const streamOpened = page.waitForResponse((res) => res.url().endsWith(`/api/sessions/${session.sessionId}/live`), { timeout: 15_000 });
  await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
  await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
  await streamOpened;
  return page;
}

const card = (page: Page, logoId: string) => page.locator(`[data-testid="result-card"][data-logo-id="${logoId}"]`);
const shownTotal = (page: Page, total: number) =>
  page.waitForFunction((text) => document.querySelector('[data-testid="total-votes"]')?.textContent === text, `Total votes: ${total}`, {
    timeout: 15_000,
  });

describe('a results page without votes', () => {
  it.each(['phone', 'desktop'] as const)('asks to share the voting link, with copy and QR code, on a %s', async (viewport) => {
    const session = await createPoll({ feedbackPrompt: 'Which logo for the shop sign?' });
    const page = await openResults(session, viewport);
    await expect(page.getByRole('heading', { level: 1, name: 'Voting Results' }).count()).resolves.toBe(1);
    await expect(page.getByTestId('total-votes').innerText()).resolves.toBe('Total votes: 0');
    await expect(page.getByTestId('vote-count').allInnerTexts()).resolves.toEqual(['0 votes', '0 votes', '0 votes', '0 votes']);
    const prompt = page.getByTestId('no-votes-prompt');
    await expect(prompt.getByRole('heading', { name: 'Share the voting link to get votes' }).count()).resolves.toBe(1);
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await shoot(page, `results-no-votes-prompt-${viewport}`);

    await prompt.getByRole('button', { name: 'Copy link' }).click();
    await expectToast(page, 'Link copied!', 'Voting link has been copied to clipboard.');
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(`${gatewayUrl}/vote/${session.sessionId}`);

    await prompt.getByRole('button', { name: 'Show QR code' }).click();
    const qr = page.getByRole('dialog', { name: 'QR code for the voting link' });
    await qr.getByRole('img', { name: `QR code that opens ${gatewayUrl}/vote/${session.sessionId}` }).waitFor();
    await page.keyboard.press('Escape');
    await qr.waitFor({ state: 'hidden' });

    // The first vote ends the prompt.
    await (await apiVoter(session.sessionId)).vote(session.logos[0]!.id);
    await shownTotal(page, 1);
    await expect(prompt.count()).resolves.toBe(0);
  });
});

describe('reasons on an open results page', () => {
  it.each(['phone', 'desktop'] as const)('arrive live, with a vote and after it, on a %s', async (viewport) => {
    const session = await createPoll({ logos: ['logo-ring.png', 'logo-wave.svg'] });
    const [ring, wave] = session.logos.map((logo) => logo.id) as [string, string];
    const page = await openResults(session, viewport);
    await card(page, ring).getByText('No reasons given yet.').waitFor({ timeout: 15_000 });
    await card(page, wave).getByText('No reasons given yet.').waitFor({ timeout: 15_000 });
    const reloads: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloads.push(frame.url());
    });

    // A vote, then its reason once the vote shows: the reason comes by its own signal, not with the counts.
    const voter = await apiVoter(session.sessionId);
    const fingerprint = randomFingerprint();
    expect((await voter.vote(wave, fingerprint)).status).toBe(200);
    await shownTotal(page, 1);
    expect((await voter.giveReason('The wave feels calm and friendly', fingerprint)).status).toBe(200);
    await card(page, wave).getByTestId('reason').filter({ hasText: 'The wave feels calm and friendly' }).waitFor({ timeout: 15_000 });

    // A vote and its reason sent together.
    const second = await apiVoter(session.sessionId);
    const secondFingerprint = randomFingerprint();
    expect((await second.vote(ring, secondFingerprint)).status).toBe(200);
    expect((await second.giveReason('Bold ring, easy to spot', secondFingerprint)).status).toBe(200);
    await shownTotal(page, 2);
    await card(page, ring).getByTestId('reason').filter({ hasText: 'Bold ring, easy to spot' }).waitFor({ timeout: 15_000 });
    await expect(page.getByText('No reasons given yet.').count()).resolves.toBe(0);
    expect(reloads).toEqual([]);
    await expectNoHorizontalOverflow(page);
    await shoot(page, `results-live-reasons-${viewport}`);
  });
});
