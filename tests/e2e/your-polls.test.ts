/**
 * The creator never loses a poll (docs/your-polls.md): the links are in the creation dialog from the plan step
 * on, this browser lists its polls under 'Your polls' on the landing page, and a second 'Get Votes!' with the
 * same logos and question offers the poll already made.
 */
import type { CreatedSession } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { deleteAdminPoll } from '../support/admin';
import { voteThroughApi } from '../support/polls';
import { testStack } from '../support/stack-env';
import {
  dismissToast,
  expectAccessible,
  expectNoHorizontalOverflow,
  expectToast,
  fixture,
  shoot,
  toast,
  useBrowser,
  visit,
  type ViewportName,
} from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();

const picker = (page: Page) => page.locator('[data-testid="upload-area"] input[type="file"]');
const dialog = (page: Page) => page.getByTestId('creation-dialog');
const atStep = (page: Page, step: 'creating' | 'plan' | 'email' | 'sent') =>
  page.waitForSelector(`[data-testid="creation-dialog"][data-step="${step}"]`, { timeout: 20_000 });
const yourPoll = (page: Page, sessionId: string) => page.locator(`[data-testid="your-poll"][data-session-id="${sessionId}"]`);
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

async function openLanding(viewport: ViewportName) {
  const page = await browser.newPage(viewport, { permissions: ['clipboard-read', 'clipboard-write'] });
  const creations: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sessions') creations.push(request.url());
  });
  await visit(page, '/', '[data-remote="create"]');
  return { page, creations };
}

/** Picks the logos (and question) and presses 'Get Votes!'; resolves with the poll made. */
async function makePoll(page: Page, logos: readonly string[], question = ''): Promise<CreatedSession> {
  if (logos.length > 0) await picker(page).setInputFiles(logos.map(fixture));
  if (question) await page.getByLabel('Feedback question (optional)').fill(question);
  const response = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
  await page.locator('button', { hasText: 'Get Votes!' }).click();
  const answer = await response;
  expect(answer.status()).toBe(201);
  return (await answer.json()) as CreatedSession;
}

/** The toast with this text (a new toast replaces the one shown). */
const toastSaying = (page: Page, text: string) => toast(page).filter({ hasText: text }).waitFor({ timeout: 10_000 });

describe("'Your polls'", () => {
  it('shows nothing on a first visit', async () => {
    const { page } = await openLanding('desktop');
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('your-polls').count()).resolves.toBe(0);
    await expect(
      page.evaluate(() => performance.getEntriesByType('resource').some((entry) => /your-polls/.test(entry.name))),
    ).resolves.toBe(false);
  });

  it.each(['phone', 'desktop'] as const)(
    'keeps a poll whose dialog was closed at the plan step, without an e-mail, on a %s',
    async (viewport) => {
      const { page } = await openLanding(viewport);
      const question = `Which mark reads best at small sizes? (${viewport})`;
      const session = await makePoll(page, ['logo-ring.png', 'logo-triangle.jpg', 'logo-wave.svg'], question);
      await atStep(page, 'plan');

      // The links are there from the plan step on, with copy buttons.
      await expect(dialog(page).getByRole('textbox', { name: 'Voting link' }).inputValue()).resolves.toBe(session.votingUrl);
      await expect(dialog(page).getByRole('textbox', { name: 'Results link' }).inputValue()).resolves.toBe(session.resultsUrl);
      await dialog(page).getByRole('button', { name: 'Copy voting link' }).click();
      await expectToast(page, 'Link copied!', 'Voting link has been copied to clipboard.');
      await expect(clipboard(page)).resolves.toBe(session.votingUrl);
      await dialog(page).getByRole('button', { name: 'Copy results link' }).click();
      await toastSaying(page, 'Results link has been copied to clipboard.');
      await expect(clipboard(page)).resolves.toBe(session.resultsUrl);
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page);
      await shoot(page, `your-polls-dialog-plan-${viewport}`);

      // So are they at the e-mail step.
      await page.getByRole('button', { name: 'Continue' }).click();
      await atStep(page, 'email');
      await expect(dialog(page).getByRole('textbox', { name: 'Voting link' }).inputValue()).resolves.toBe(session.votingUrl);
      await shoot(page, `your-polls-dialog-email-${viewport}`);

      // Escape: the spec's reset, and the poll is under 'Your polls'.
      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'detached' });
      const row = yourPoll(page, session.sessionId);
      await row.waitFor();
      await expect(row.getByRole('heading', { name: question }).count()).resolves.toBe(1);
      await page.waitForSelector(`[data-testid="your-poll"][data-session-id="${session.sessionId}"][data-state="success"]`);
      await expect(row.getByTestId('your-poll-votes').innerText()).resolves.toBe('0 votes');

      // Votes so far, after a reload: the list lives in this browser.
      await voteThroughApi(session.sessionId, session.logos[1]!.id);
      await page.reload();
      await page.waitForSelector(`[data-testid="your-poll"][data-session-id="${session.sessionId}"][data-state="success"]`, {
        timeout: 15_000,
      });
      await expect(row.getByTestId('your-poll-votes').innerText()).resolves.toBe('1 vote');
      await expect(row.locator('img').count()).resolves.toBe(3);
      await row
        .locator('img')
        .last()
        .evaluate((image: HTMLImageElement) => image.decode());
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page);
      await page.getByTestId('your-polls').scrollIntoViewIfNeeded();
      await shoot(page, `your-polls-landing-${viewport}`);

      await row.getByRole('button', { name: 'Copy voting link' }).click();
      await toastSaying(page, 'Voting link has been copied to clipboard.');
      await expect(clipboard(page)).resolves.toBe(session.votingUrl);
      await dismissToast(page);
      await row.getByRole('button', { name: 'Copy results link' }).click();
      await toastSaying(page, 'Results link has been copied to clipboard.');
      await expect(clipboard(page)).resolves.toBe(session.resultsUrl);
      await dismissToast(page);

      // The creator's controls: close voting here, and the results page knows this browser as the creator.
      await row.getByRole('button', { name: 'Close voting' }).click();
      await expectToast(page, 'Voting closed');
      await row.getByText('Voting closed', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Reopen voting' }).waitFor();
      await shoot(page, `your-polls-closed-${viewport}`);
      await row.getByRole('link', { name: 'Open results' }).click();
      await page.waitForURL(`${gatewayUrl}/results/${session.sessionId}`);
      await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });
      await expect(page.getByTestId('voting-state').innerText()).resolves.toBe('Voting has closed');
      await expect(page.getByRole('button', { name: 'Reopen voting' }).count()).resolves.toBe(1);

      // Forgetting takes it off the list, and the list goes with its last poll.
      await visit(page, '/', '[data-remote="create"]');
      await row.waitFor({ timeout: 15_000 });
      await row.getByRole('button', { name: `Forget ${question}` }).click();
      await page.getByTestId('your-polls').waitFor({ state: 'detached' });
      await page.reload();
      await page.waitForSelector('[data-remote="create"]');
      await page.waitForLoadState('networkidle');
      await expect(page.getByTestId('your-polls').count()).resolves.toBe(0);
    },
  );

  it('says when a listed poll no longer exists', async () => {
    const { page } = await openLanding('desktop');
    const session = await makePoll(page, ['logo-ring.png', 'logo-square.png']);
    await atStep(page, 'plan');
    await page.keyboard.press('Escape');
    await yourPoll(page, session.sessionId).waitFor();
    expect(await deleteAdminPoll(session.sessionId)).toBe(200);
    await page.reload();
    const row = yourPoll(page, session.sessionId);
    await page.waitForSelector(`[data-testid="your-poll"][data-session-id="${session.sessionId}"][data-state="gone"]`, { timeout: 15_000 });
    await expect(row.getByTestId('your-poll-votes').innerText()).resolves.toBe('This poll no longer exists.');
    await expect(row.getByRole('button', { name: 'Copy voting link' }).count()).resolves.toBe(0);
    await shoot(page, 'your-polls-gone-desktop');
  });
});

describe("a second 'Get Votes!' with the same logos and question", () => {
  it.each(['phone', 'desktop'] as const)('offers the poll just made instead of a duplicate, on a %s', async (viewport) => {
    const { page, creations } = await openLanding(viewport);
    const first = await makePoll(page, ['logo-diamond.webp', 'logo-wave.svg'], 'Which one for the app icon?');
    await atStep(page, 'plan');
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    expect(creations).toHaveLength(1);

    await page.locator('button', { hasText: 'Get Votes!' }).click();
    const offer = page.getByTestId('duplicate-poll-dialog');
    await offer.waitFor();
    await expect(offer.getByRole('heading', { name: 'You already made a poll with these logos' }).count()).resolves.toBe(1);
    await expect(offer.getByRole('textbox', { name: 'Voting link' }).inputValue()).resolves.toBe(first.votingUrl);
    await expect(offer.getByRole('textbox', { name: 'Results link' }).inputValue()).resolves.toBe(first.resultsUrl);
    expect(creations).toHaveLength(1);
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await shoot(page, `your-polls-duplicate-offer-${viewport}`);

    // Asked for, a new poll is made; then that one is the one offered, and 'Open it' goes to it.
    const response = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
    await offer.getByRole('button', { name: 'Make a new poll anyway' }).click();
    const second = (await (await response).json()) as CreatedSession;
    expect(second.sessionId).not.toBe(first.sessionId);
    await atStep(page, 'plan');
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    await page.locator('button', { hasText: 'Get Votes!' }).click();
    await offer.waitFor();
    await expect(offer.getByRole('textbox', { name: 'Voting link' }).inputValue()).resolves.toBe(second.votingUrl);
    await offer.getByRole('button', { name: 'Open it' }).click();
    await page.waitForURL(`**/vote/${second.sessionId}`);
    expect(creations).toHaveLength(2);
  });

  it('makes a new poll when the question differs, or when the first went through to the last step', async () => {
    const { page, creations } = await openLanding('desktop');
    await makePoll(page, ['logo-ring.png', 'logo-wave.svg'], 'First question');
    await atStep(page, 'plan');
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });

    await page.getByLabel('Feedback question (optional)').fill('Second question');
    await makePoll(page, []);
    await atStep(page, 'plan');
    await page.getByRole('button', { name: 'Continue' }).click();
    await atStep(page, 'email');
    // Taken by the input's e-mail check, refused by the server: the sent step follows.
    await page.getByLabel('Email address').fill('me@example');
    await page.getByRole('button', { name: 'Send Links' }).click();
    await atStep(page, 'sent');
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });

    await makePoll(page, []);
    await atStep(page, 'plan');
    expect(creations).toHaveLength(3);
    await expect(page.getByTestId('duplicate-poll-dialog').count()).resolves.toBe(0);
  });
});
