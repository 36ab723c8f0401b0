/**
 * A poll hidden pending review on a phone (390×844, docs/moderation.md): a results page open while the poll is
 * hidden turns to the notice by itself (its live stream ends with the 'ended' event), and the voting and results
 * pages opened afterwards show the notice, load no logo and offer no QR code. Screenshots:
 * test-results/screenshots/hidden-poll-*.png.
 */
import { hideIfReportedEnough, insertReport, readPollStatus } from '@logovote/models';
import type { Page } from 'playwright-core';
import { connectStackDatabase, deleteAdminPoll, disconnectStackDatabase } from '../support/admin';
import { createPoll, visitPollScreen } from '../support/polls';
import { expectNoHorizontalOverflow, shoot, useBrowser } from '../support/web';

const browser = useBrowser();
/** The phone of the screenshots. */
const PHONE = { viewport: { width: 390, height: 844 } };
/** The stack's REPORTS_TO_HIDE (the votes service's default). */
const TO_HIDE = 3;

beforeAll(connectStackDatabase);
afterAll(disconnectStackDatabase);

/** Every request the page makes for a logo image, with its status. */
function logoRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/logos/')) seen.push(`${response.status()} ${response.url()}`);
  });
  return seen;
}

/** Hides the poll as the votes service does at the threshold: reports from distinct addresses, then the hide. */
async function hide(pollId: string): Promise<void> {
  const { round } = await readPollStatus(pollId);
  for (let index = 0; index < TO_HIDE; index++) {
    await insertReport({ pollId, round, ipHash: `e2e-hidden-poll-${pollId}-${index}`, category: 'misleading' });
  }
  expect(await hideIfReportedEnough(pollId, round, TO_HIDE)).toBe(true);
}

describe('a hidden poll on a phone', () => {
  it('the open results page turns to the notice; the voting and results pages show it, with no logo and no QR code', async () => {
    const poll = await createPoll({ feedbackPrompt: 'Which badge for the hiking club?' });

    // The results page, open and following the live stream, when the poll gets hidden.
    const watching = await browser.newPage('phone', PHONE);
    const streamOpened = watching.waitForResponse((response) => response.url().endsWith(`/api/sessions/${poll.sessionId}/live`));
    await visitPollScreen(watching, `/results/${poll.sessionId}`, 'results');
    await watching.getByTestId('result-card').first().waitFor();
    expect((await streamOpened).status()).toBe(200);
    await hide(poll.sessionId);
    await watching.getByTestId('results-hidden').waitFor({ timeout: 10_000 });
    await expect(watching.getByTestId('result-card').count()).resolves.toBe(0);
    await expect(watching.getByRole('button', { name: /QR/i }).count()).resolves.toBe(0);

    // Opened afterwards: the results page, then the voting page.
    const phone = await browser.newPage('phone', PHONE);
    const logos = logoRequests(phone);
    await visitPollScreen(phone, `/results/${poll.sessionId}`, 'results');
    await phone.getByTestId('results-hidden').waitFor({ timeout: 15_000 });
    await expect(phone.getByRole('button', { name: /QR/i }).count()).resolves.toBe(0);
    await expect(phone.locator('img').count()).resolves.toBe(0);
    await expectNoHorizontalOverflow(phone);
    await shoot(phone, 'hidden-poll-results-phone');

    await visitPollScreen(phone, `/vote/${poll.sessionId}`, 'vote');
    await phone.getByTestId('poll-hidden').waitFor({ timeout: 15_000 });
    await expect(phone.locator('img').count()).resolves.toBe(0);
    await expect(phone.getByTestId('vote-button').count()).resolves.toBe(0);
    await expectNoHorizontalOverflow(phone);
    await shoot(phone, 'hidden-poll-vote-phone');
    expect(logos).toEqual([]);

    expect(await deleteAdminPoll(poll.sessionId)).toBe(200);
  });
});
