import type { CreatedSessionWithCreatorToken, SessionView } from '@logovote/contracts';
import { mailCatcherClient } from '@logovote/devstack';
import type { Page } from 'playwright-core';
import { createPoll, getPoll, visitPollScreen, voteThroughApi } from '../support/polls';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  expectToast,
  fixture,
  shoot,
  useBrowser,
  visit,
  type ViewportName,
} from '../support/web';

const { gatewayUrl, mailApiUrl } = testStack();
const browser = useBrowser();

const tokenKey = (sessionId: string) => `logovote.creatorToken.${sessionId}`;
const storedToken = (page: Page, sessionId: string) => page.evaluate((key) => localStorage.getItem(key), tokenKey(sessionId));

/** POST /api/sessions/{id}/close or /reopen as the creator, outside the browser. */
async function changeVotingThroughApi(sessionId: string, creatorToken: string, action: 'close' | 'reopen'): Promise<void> {
  const lookup = await fetch(`${gatewayUrl}/api/sessions/${sessionId}`);
  const { csrfToken } = (await lookup.json()) as SessionView;
  const cookie = lookup.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
  const res = await fetch(`${gatewayUrl}/api/sessions/${sessionId}/${action}`, {
    method: 'POST',
    headers: { 'X-CSRF-Token': csrfToken ?? '', 'X-Creator-Token': creatorToken, Cookie: cookie },
  });
  expect(res.status).toBe(200);
}

const votingControls = (page: Page) => page.getByTestId('voting-controls');

/** Opens the voting page and waits for it to show a state other than loading. */
async function openVoting(page: Page, sessionId: string): Promise<Page> {
  await visitPollScreen(page, `/vote/${sessionId}`, 'vote');
  await page.waitForSelector('[data-remote="vote"]:not([data-phase="loading"])', { timeout: 15_000 });
  return page;
}

/** Confirms 'Close voting' or 'Reopen voting' on the results page and waits for the page to show the new state. */
async function changeVotingOnResults(page: Page, action: 'Close voting' | 'Reopen voting'): Promise<void> {
  await votingControls(page).getByRole('button', { name: action }).click();
  const dialog = page.getByTestId('voting-state-dialog');
  await dialog.waitFor({ timeout: 10_000 });
  await dialog.getByRole('button', { name: action }).click();
  await expectToast(page, action === 'Close voting' ? 'Voting closed' : 'Voting reopened');
  await page.waitForSelector(`[data-testid="voting-controls"][data-closed="${action === 'Close voting'}"]`, { timeout: 10_000 });
}

describe('closing a poll', () => {
  it('the creation dialog keeps the creator token, sends it for the e-mail, and the results page closes and reopens voting', async () => {
    const page = await browser.newPage('desktop');
    await visit(page, '/', '[data-remote="create"]');
    await page.locator('[data-testid="upload-area"] input[type="file"]').setInputFiles(['logo-ring.png', 'logo-wave.svg'].map(fixture));
    const response = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    const session = (await (await response).json()) as CreatedSessionWithCreatorToken;
    expect(session.creatorToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.waitForSelector('[data-testid="creation-dialog"][data-step="plan"]', { timeout: 20_000 });
    await expect(storedToken(page, session.sessionId)).resolves.toBe(session.creatorToken);

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForSelector('[data-testid="creation-dialog"][data-step="email"]', { timeout: 10_000 });
    const address = `closing-${Date.now()}@example.com`;
    await page.getByLabel('Email address').fill(address);
    const notified = page.waitForRequest((req) => req.url().endsWith(`/api/sessions/${session.sessionId}/notify`));
    await page.getByRole('button', { name: 'Send Links' }).click();
    const notify = await notified;
    // The spec's body, the token beside it in a header.
    expect(JSON.parse(notify.postData() ?? '{}')).toEqual({ email: address });
    expect(notify.headers()['x-creator-token']).toBe(session.creatorToken);
    await page.waitForSelector('[data-testid="creation-dialog"][data-step="sent"]', { timeout: 10_000 });
    const manageUrl = `${session.resultsUrl}#manage=${session.creatorToken}`;
    await expect(page.getByRole('textbox', { name: 'Manage link' }).inputValue()).resolves.toBe(manageUrl);
    await shoot(page, 'closing-create-sent-desktop');
    const mail = await mailCatcherClient(mailApiUrl).waitFor((m) => m.to.includes(address));
    expect(mail.text).toContain(manageUrl);

    // Two votes for the wave, one for the ring, then the creator closes voting on the results page.
    const [ring, wave] = session.logos as [SessionView['logos'][0], SessionView['logos'][0]];
    await voteThroughApi(session.sessionId, wave.id);
    await voteThroughApi(session.sessionId, wave.id);
    await voteThroughApi(session.sessionId, ring.id);
    await visitPollScreen(page, `/results/${session.sessionId}`, 'results');
    await votingControls(page).waitFor({ timeout: 10_000 });
    await expect(votingControls(page).getByTestId('voting-state').innerText()).resolves.toBe('Voting is open');
    await changeVotingOnResults(page, 'Close voting');
    await expect(votingControls(page).getByTestId('voting-state').innerText()).resolves.toBe('Voting has closed');
    // The verdict has final words at once (docs/confidence.md).
    await expect(page.getByTestId('confidence-verdict').getAttribute('data-voting')).resolves.toBe('closed');
    await expect(page.getByTestId('confidence-verdict').innerText()).resolves.toMatch(
      /^Voting closed with no clear favourite: Logo A \(logo-wave\) led with a \d+% chance to be the most preferred\./,
    );
    await expect(getPoll(session.sessionId)).resolves.toMatchObject({ closed: true });
    await votingControls(page).getByRole('button', { name: 'Reopen voting' }).waitFor();

    // A visitor's voting page shows the final results instead of the vote button.
    const voter = await openVoting(await browser.newPage('desktop'), session.sessionId);
    await expect(voter.locator('[data-remote="vote"]').getAttribute('data-phase')).resolves.toBe('closed');
    await voter.getByRole('heading', { name: 'Voting has closed' }).waitFor();
    await expect(voter.getByTestId('vote-button').count()).resolves.toBe(0);
    await expect(voter.getByTestId('final-votes').allInnerTexts()).resolves.toEqual(['2 votes', '1 vote']);
    await expect(voter.getByTestId('final-percent').allInnerTexts()).resolves.toEqual(['67% of total votes', '33% of total votes']);
    await expect(voter.getByTestId('final-result').first().getAttribute('data-logo-id')).resolves.toBe(wave.id);
    await expect(voter.getByTestId('final-winner').count()).resolves.toBe(1);

    // Reopened: the visitor can vote again, and the verdict says again how many more votes would settle it.
    await changeVotingOnResults(page, 'Reopen voting');
    await expect(page.getByTestId('confidence-verdict').innerText()).resolves.toMatch(
      /^Logo A \(logo-wave\) leads; about \d+ more votes would likely settle it/,
    );
    await openVoting(voter, session.sessionId);
    await expect(voter.locator('[data-remote="vote"]').getAttribute('data-phase')).resolves.toBe('voting');
  });

  it.each<ViewportName>(['phone', 'desktop'])(
    'the e-mail manage link gives a fresh browser the controls and leaves the address bar without the token (%s)',
    async (viewport) => {
      const session = (await createPoll({ feedbackPrompt: 'Which one reads best small?' })) as CreatedSessionWithCreatorToken;
      const [a, b, c] = session.logos.map((logo) => logo.id) as [string, string, string];
      await voteThroughApi(session.sessionId, b);
      await voteThroughApi(session.sessionId, b);
      await voteThroughApi(session.sessionId, c);
      await voteThroughApi(session.sessionId, a);

      // Anyone else sees no controls on an open poll.
      const visitor = await browser.newPage(viewport);
      await visitPollScreen(visitor, `/results/${session.sessionId}`, 'results');
      await visitor.getByTestId('total-votes').waitFor();
      await expect(votingControls(visitor).count()).resolves.toBe(0);

      const page = await browser.newPage(viewport, { bypassCSP: true });
      await page.goto(`${session.resultsUrl.replace(/^https?:\/\/[^/]+/, gatewayUrl)}#manage=${session.creatorToken}`);
      await votingControls(page).waitFor({ timeout: 15_000 });
      expect(new URL(page.url()).hash).toBe('');
      await expect(storedToken(page, session.sessionId)).resolves.toBe(session.creatorToken);
      await votingControls(page).getByRole('button', { name: 'Close voting' }).click();
      await page.getByTestId('voting-state-dialog').waitFor();
      await shoot(page, `closing-confirm-${viewport}`);
      await page.getByTestId('voting-state-dialog').getByRole('button', { name: 'Close voting' }).click();
      await expectToast(page, 'Voting closed', 'Voters now see the final results.');
      await page.waitForSelector('[data-testid="voting-controls"][data-closed="true"]');
      // 'These are the final results', and nothing asks for more votes.
      await expect(page.getByTestId('confidence-verdict').innerText()).resolves.toMatch(/^Voting closed with no clear favourite: Logo A /);
      await expect(page.locator('[data-remote="results"]').innerText()).resolves.not.toMatch(/more votes?\b|share the link/i);
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `closing-results-closed-${viewport}`);

      // Everyone now sees that voting has closed, on the results page and on the voting page.
      await visitPollScreen(visitor, `/results/${session.sessionId}`, 'results');
      await votingControls(visitor).waitFor({ timeout: 10_000 });
      await expect(votingControls(visitor).getByRole('button').count()).resolves.toBe(0);
      const voter = await openVoting(await browser.newPage(viewport, { bypassCSP: true }), session.sessionId);
      await voter.getByTestId('voting-closed').waitFor({ timeout: 10_000 });
      await expect(voter.getByTestId('final-votes').allInnerTexts()).resolves.toEqual(['2 votes', '1 vote', '1 vote', '0 votes']);
      await expectAccessible(voter);
      await expectNoHorizontalOverflow(voter);
      await shoot(voter, `closing-vote-closed-${viewport}`);
    },
  );

  it("a vote refused because the poll closed meanwhile shows the server's message in the 'Error' toast, then the final results", async () => {
    const session = (await createPoll({ logos: ['logo-ring.png', 'logo-square.png'] })) as CreatedSessionWithCreatorToken;
    const voter = await openVoting(await browser.newPage('phone'), session.sessionId);
    await expect(voter.locator('[data-remote="vote"]').getAttribute('data-phase')).resolves.toBe('voting');

    await changeVotingThroughApi(session.sessionId, session.creatorToken, 'close');
    const refused = voter.waitForResponse((res) => res.url().endsWith(`/api/sessions/${session.sessionId}/vote`));
    await voter.getByTestId('vote-button').click();
    expect((await refused).status()).toBe(409);
    await expectToast(voter, 'Error', 'Voting on this poll has closed.');
    await voter.getByTestId('voting-closed').waitFor({ timeout: 10_000 });
    await shoot(voter, 'closing-vote-refused-phone');
    await expect(getPoll(session.sessionId)).resolves.toMatchObject({ totalVotes: 0 });
  });
});
