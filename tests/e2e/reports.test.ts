import { POLL_HIDDEN, type ReportedPollList } from '@logovote/contracts';
import { insertReport, readPollStatus } from '@logovote/models';
import type { Page } from 'playwright-core';
import { adminAuthorization, adminCredentials, connectStackDatabase, disconnectStackDatabase } from '../support/admin';
import { apiVoter, createPoll, visitPollScreen } from '../support/polls';
import { testStack } from '../support/stack-env';
import { expectAccessible, expectFocusOn, expectNoHorizontalOverflow, expectToast, shoot, useBrowser, visit } from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

/** The stack's REPORTS_TO_HIDE (the votes service's default). */
const TO_HIDE = 3;
const ADMIN_BROWSER = { httpCredentials: adminCredentials(), timezoneId: 'Europe/Berlin', locale: 'en-US', bypassCSP: true };

beforeAll(connectStackDatabase);
afterAll(disconnectStackDatabase);

/** Opens the voting page and waits for it to show a state other than loading. */
async function openVoting(page: Page, sessionId: string): Promise<Page> {
  await visitPollScreen(page, `/vote/${sessionId}`, 'vote');
  await page.waitForSelector('[data-remote="vote"]:not([data-phase="loading"])', { timeout: 15_000 });
  return page;
}

async function reportedPolls(): Promise<ReportedPollList> {
  const res = await fetch(`${gatewayUrl}/api/admin/reports`, { headers: adminAuthorization() });
  expect(res.status).toBe(200);
  return (await res.json()) as ReportedPollList;
}

describe('reporting a poll', () => {
  it('a voter reports from the voting page; at the threshold the poll is hidden everywhere; the admin restores it', async () => {
    const poll = await createPoll({ feedbackPrompt: 'Which one for our bakery?' });
    // Reports from other network addresses (the browser's all come from the gateway's one), stored by the votes
    // service's own data-access code: one short of the threshold.
    const { round } = await readPollStatus(poll.sessionId);
    for (let index = 1; index < TO_HIDE; index++) {
      await insertReport({
        pollId: poll.sessionId,
        round,
        ipHash: `e2e-other-address-${poll.sessionId}-${index}`,
        category: 'human-faces',
      });
    }

    // The dialog on a desktop (and its accessibility), cancelled.
    const desktop = await browser.newPage('desktop', { bypassCSP: true });
    await openVoting(desktop, poll.sessionId);
    await desktop.getByTestId('report-poll').click();
    const desktopDialog = desktop.getByTestId('report-dialog');
    await desktopDialog.waitFor({ timeout: 10_000 });
    await desktopDialog.getByLabel('Copyright infringement').check();
    await expectAccessible(desktop);
    await shoot(desktop, 'reports-dialog-desktop');
    await desktopDialog.getByRole('button', { name: 'Cancel' }).click();
    await desktopDialog.waitFor({ state: 'detached' });
    await expectFocusOn(desktop.getByTestId('report-poll'));

    // The report itself, from a phone: a reason is required, the note is optional.
    const phone = await browser.newPage('phone');
    await openVoting(phone, poll.sessionId);
    await shoot(phone, 'reports-link-phone');
    await phone.getByTestId('report-poll').click();
    const dialog = phone.getByTestId('report-dialog');
    await dialog.waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByText('Please choose a reason.').waitFor();
    await dialog.getByLabel('Human faces').check();
    await dialog.getByTestId('report-note').fill('A photo of a real person');
    await expectNoHorizontalOverflow(phone);
    await shoot(phone, 'reports-dialog-phone');
    const sent = phone.waitForRequest((req) => req.url().endsWith(`/api/sessions/${poll.sessionId}/reports`));
    await dialog.getByRole('button', { name: 'Send report' }).click();
    const request = await sent;
    expect(JSON.parse(request.postData() ?? '{}')).toEqual({ category: 'human-faces', note: 'A photo of a real person' });
    expect(request.headers()['x-csrf-token']).toEqual(expect.any(String));
    await expectToast(phone, 'Report sent');
    await dialog.waitFor({ state: 'detached' });

    // Hidden: the session says so, votes are refused, and no page shows the poll's logos.
    expect((await readPollStatus(poll.sessionId)).hidden).toBe(true);
    const refused = await (await apiVoter(poll.sessionId)).vote(poll.logos[0]!.id);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ message: POLL_HIDDEN });
    const html = await (await fetch(`${gatewayUrl}/vote/${poll.sessionId}`)).text();
    expect(html).not.toMatch(/<img src="\/api\/logos\//);
    expect(html).not.toContain('og:image');
    expect(html).toMatch(/<meta property="og:title" content="LogoVote" ?\/?>/);

    await openVoting(phone, poll.sessionId);
    await phone.getByTestId('poll-hidden').waitFor();
    await expect(phone.locator('[data-remote="vote"] img').count()).resolves.toBe(0);
    await expect(phone.getByTestId('vote-button').count()).resolves.toBe(0);
    await shoot(phone, 'reports-hidden-vote-phone');
    await openVoting(desktop, poll.sessionId);
    await desktop.getByTestId('poll-hidden').waitFor();
    await expectAccessible(desktop);
    await shoot(desktop, 'reports-hidden-vote-desktop');
    await visitPollScreen(phone, `/results/${poll.sessionId}`, 'results');
    await phone.getByTestId('results-hidden').waitFor({ timeout: 15_000 });
    await expect(phone.getByTestId('result-card').count()).resolves.toBe(0);
    await shoot(phone, 'reports-hidden-results-phone');

    // The admin sees it first in 'Reported polls', and restores it.
    const listed = (await reportedPolls()).find((item) => item.pollId === poll.sessionId);
    expect(listed).toMatchObject({ reports: TO_HIDE, hidden: true, reasons: [{ category: 'human-faces', count: TO_HIDE }] });
    for (const viewport of ['phone', 'desktop'] as const) {
      const admin = await browser.newPage(viewport, ADMIN_BROWSER);
      await visit(admin, '/admin/polls', '[data-remote="admin"]');
      const item = admin.locator(`[data-testid="reported-poll"][data-poll-id="${poll.sessionId}"]`);
      await item.waitFor({ timeout: 15_000 });
      await expect(item.getAttribute('data-hidden')).resolves.toBe('true');
      await expect(item.getByTestId('reported-poll-count').textContent()).resolves.toBe(`${TO_HIDE} reports since the last review`);
      await item.getByText('“A photo of a real person”').waitFor();
      await item.scrollIntoViewIfNeeded();
      await expectNoHorizontalOverflow(admin);
      await expectAccessible(admin);
      await shoot(admin, `reports-admin-${viewport}`);
      if (viewport === 'phone') continue;

      await item.getByTestId('restore-poll').click();
      const confirm = admin.getByTestId('restore-poll-dialog');
      await confirm.waitFor();
      await shoot(admin, 'reports-admin-restore-dialog-desktop');
      await confirm.getByRole('button', { name: 'Restore Poll' }).click();
      await expectToast(admin, 'Poll restored');
      await item.waitFor({ state: 'detached', timeout: 10_000 });
    }

    // Restored: voting is back, and the reports before the review no longer count.
    expect(await readPollStatus(poll.sessionId)).toMatchObject({ round: round + 1, hidden: false });
    expect((await reportedPolls()).map((item) => item.pollId)).not.toContain(poll.sessionId);
    await openVoting(phone, poll.sessionId);
    await phone.getByTestId('vote-button').waitFor();
    const accepted = await (await apiVoter(poll.sessionId)).vote(poll.logos[0]!.id);
    expect(accepted.status).toBe(200);
  });

  it("the admin deletes a hidden poll from 'Reported polls': asked first, then gone with its reports", async () => {
    const poll = await createPoll({ feedbackPrompt: 'Delete me from the reported list' });
    const { round } = await readPollStatus(poll.sessionId);
    // Other addresses' reports one short of the threshold, then this one's through the gateway, which hides it.
    for (let index = 1; index < TO_HIDE; index++) {
      await insertReport({ pollId: poll.sessionId, round, ipHash: `e2e-delete-${poll.sessionId}-${index}`, category: 'misleading' });
    }
    const reported = await (await apiVoter(poll.sessionId)).report('misleading');
    expect(reported.status).toBe(200);
    expect((await reportedPolls()).find((item) => item.pollId === poll.sessionId)).toMatchObject({ reports: TO_HIDE, hidden: true });

    const admin = await browser.newPage('desktop', ADMIN_BROWSER);
    await visit(admin, '/admin/polls', '[data-remote="admin"]');
    const item = admin.locator(`[data-testid="reported-poll"][data-poll-id="${poll.sessionId}"]`);
    await item.waitFor({ timeout: 15_000 });
    await item.getByTestId('delete-reported-poll').click();
    const confirm = admin.getByTestId('delete-poll-dialog');
    await confirm.waitFor();
    await expect(confirm.getByRole('button').allInnerTexts()).resolves.toEqual(['Cancel', 'Delete Poll']);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect(fetch(`${gatewayUrl}/api/sessions/${poll.sessionId}`).then((res) => res.status)).resolves.toBe(200);

    await item.getByTestId('delete-reported-poll').click();
    await confirm.waitFor();
    const deleted = admin.waitForResponse((res) => res.request().method() === 'DELETE');
    await confirm.getByRole('button', { name: 'Delete Poll' }).click();
    const answer = await deleted;
    expect(new URL(answer.url()).pathname).toBe(`/api/admin/polls/${poll.sessionId}`);
    expect(answer.status()).toBe(200);
    await expectToast(admin, 'Poll deleted');
    await item.waitFor({ state: 'detached', timeout: 10_000 });
    await shoot(admin, 'reports-admin-deleted-desktop');

    expect((await reportedPolls()).map((listed) => listed.pollId)).not.toContain(poll.sessionId);
    await expect(fetch(`${gatewayUrl}/api/sessions/${poll.sessionId}`).then((res) => res.status)).resolves.toBe(404);
  });
});
