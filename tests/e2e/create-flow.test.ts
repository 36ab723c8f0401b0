import type { AdminPollList, CreatedSession } from '@logovote/contracts';
import { mailCatcherClient } from '@logovote/devstack';
import type { Page } from 'playwright-core';
import { testStack } from '../support/stack-env';
import {
  dismissToast,
  expectAccessible,
  expectNoHorizontalOverflow,
  expectToast,
  fixture,
  FOUR_LOGOS,
  oversizeLogo,
  recordAnalytics,
  shoot,
  useBrowser,
  visit,
  waitForEvent,
  type FilePayload,
  type ViewportName,
} from '../support/web';

const { gatewayUrl, admin, mailApiUrl } = testStack();

const browser = useBrowser();

async function openLanding(viewport: ViewportName) {
  const page = await browser.newPage(viewport);
  const events = recordAnalytics(page);
  const creations: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/sessions') creations.push(request.url());
  });
  await visit(page, '/', '[data-remote="create"]');
  return { page, events, creations };
}

const picker = (page: Page) => page.locator('[data-testid="upload-area"] input[type="file"]');
const getVotes = (page: Page) => page.getByRole('button', { name: 'Get Votes!' });
const previews = (page: Page) => page.locator('[data-testid="logo-preview"]');
const dialog = (page: Page) => page.locator('[data-testid="creation-dialog"]');
const atStep = (page: Page, step: 'creating' | 'plan' | 'email' | 'sent') =>
  page.waitForSelector(`[data-testid="creation-dialog"][data-step="${step}"]`, { timeout: 20_000 });

/** Chooses the logos and starts creation; resolves with the server's answer. */
async function createPoll(page: Page, logos: readonly string[], feedbackPrompt = ''): Promise<CreatedSession> {
  await picker(page).setInputFiles(logos.map(fixture));
  if (feedbackPrompt) await page.getByLabel('Feedback question (optional)').fill(feedbackPrompt);
  const response = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
  await getVotes(page).click();
  const answer = await response;
  expect(answer.status()).toBe(201);
  return (await answer.json()) as CreatedSession;
}

async function adminPoll(pollId: string) {
  const res = await fetch(`${gatewayUrl}/api/admin/polls`, {
    headers: { Authorization: `Basic ${Buffer.from(`${admin.user}:${admin.password}`).toString('base64')}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as AdminPollList).find((poll) => poll.pollId === pollId);
}

/** The vote remote renders at the voting URL (retrying once if another test has just stopped it). */
async function expectVotingPage(page: Page, session: CreatedSession): Promise<void> {
  await page.waitForURL(`**/vote/${session.sessionId}`);
  expect(new URL(page.url()).pathname).toBe(new URL(session.votingUrl).pathname);
  const shown = await page.waitForSelector('[data-remote="vote"], [data-remote-fallback="vote"]', { timeout: 15_000 });
  if ((await shown.getAttribute('data-remote-fallback')) !== null) {
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForSelector('[data-remote="vote"]', { timeout: 15_000 });
  }
}

describe.each(['phone', 'desktop'] as const)('the landing page on a %s', (viewport) => {
  it('shows the logo, headline, upload area, a 3-row feedback question and a disabled Get Votes! button', async () => {
    const { page, events } = await openLanding(viewport);
    await expect(page.getByRole('heading', { level: 1, name: 'Which logo do your users like best?' }).count()).resolves.toBe(1);
    await expect(page.locator('[data-testid="upload-area"]').isVisible()).resolves.toBe(true);
    await expect(page.getByLabel('Feedback question (optional)').getAttribute('rows')).resolves.toBe('3');
    await expect(getVotes(page).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Use' }).count()).resolves.toBe(1);
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await shoot(page, `create-landing-empty-${viewport}`);

    await waitForEvent(events, { name: 'page_view', path: '/' });
    await waitForEvent(events, { name: 'landing_page_viewed', path: '/' });
  });

  it("says 'No logos uploaded' when Get Votes! is pressed without logos", async () => {
    const { page, creations } = await openLanding(viewport);
    await getVotes(page).click({ force: true });
    await expectToast(page, 'No logos uploaded', 'Please upload at least one logo to start voting.');
    expect(creations).toEqual([]);
    await shoot(page, `create-toast-no-logos-${viewport}`);
  });

  it('previews chosen logos, removes them one by one, and hides the upload area at 4', async () => {
    const { page } = await openLanding(viewport);
    await picker(page).setInputFiles([fixture('logo-ring.png'), fixture('logo-triangle.jpg')]);
    await expect(previews(page).count()).resolves.toBe(2);
    await expect(getVotes(page).isEnabled()).resolves.toBe(true);
    await shoot(page, `create-two-logos-${viewport}`);

    await picker(page).setInputFiles([fixture('logo-diamond.webp'), fixture('logo-wave.svg')]);
    await expect(previews(page).count()).resolves.toBe(4);
    await expect(page.locator('[data-testid="upload-area"]').count()).resolves.toBe(0);
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await shoot(page, `create-four-logos-${viewport}`);

    await page.getByRole('button', { name: 'Remove logo-diamond.webp' }).click();
    await expect(previews(page).count()).resolves.toBe(3);
    await expect(page.getByRole('img', { name: /logo-diamond\.webp/ }).count()).resolves.toBe(0);
    await expect(page.locator('[data-testid="upload-area"]').isVisible()).resolves.toBe(true);
  });

  it("skips files over 2 MB with 'Files too large' and files past the fourth with 'Too many files'", async () => {
    const { page } = await openLanding(viewport);
    await picker(page).setInputFiles([oversizeLogo(), fixture('logo-ring.png')]);
    await expectToast(page, 'Files too large', '1 file(s) exceed the 2MB size limit and were not added.');
    await expect(previews(page).count()).resolves.toBe(1);
    await shoot(page, `create-toast-too-large-${viewport}`);
    await dismissToast(page);

    await picker(page).setInputFiles(
      ['logo-triangle.jpg', 'logo-diamond.webp', 'logo-wave.svg', 'logo-square.png', 'logo-ring.png'].map(fixture),
    );
    await expectToast(page, 'Too many files', 'You can only upload up to 4 logos. 2 files were ignored.');
    await expect(previews(page).count()).resolves.toBe(4);
    await shoot(page, `create-toast-too-many-${viewport}`);
  });

  it("congratulates a single logo's owner without making a request", async () => {
    const { page, creations } = await openLanding(viewport);
    await picker(page).setInputFiles([fixture('logo-square.png')]);
    await getVotes(page).click();
    await expectToast(page, 'Congratulations!', 'Everyone voted for the only logo you uploaded 😁');
    await shoot(page, `create-toast-one-logo-${viewport}`);
    expect(creations).toEqual([]);
    await expect(dialog(page).count()).resolves.toBe(0);
  });
});

describe('creating a poll', () => {
  it('accepts logos dropped on the upload area', async () => {
    const { page } = await openLanding('desktop');
    const files = ['logo-ring.png', 'logo-wave.svg'].map(fixture).map((file) => ({ ...file, buffer: file.buffer.toString('base64') }));
    await page.evaluate((payload) => {
      const transfer = new DataTransfer();
      for (const file of payload) {
        const bytes = Uint8Array.from(atob(file.buffer), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.mimeType }));
      }
      const area = document.querySelector('[data-testid="upload-area"]')!;
      area.dispatchEvent(new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer }));
      area.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }));
    }, files);
    await expect(previews(page).count()).resolves.toBe(2);
  });

  it.each(['desktop', 'phone'] as const)(
    'walks every step on a %s: upload progress, plan, e-mail sent, and Start Voting Now',
    async (viewport) => {
      const { page, events } = await openLanding(viewport);
      // Hold the upload briefly so the creating step and its progress indicator can be seen.
      await page.route('**/api/sessions', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue();
      });
      await picker(page).setInputFiles(FOUR_LOGOS.map(fixture));
      await page.getByLabel('Feedback question (optional)').fill('  Which logo feels most trustworthy?  ');
      const response = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
      await getVotes(page).click();

      await atStep(page, 'creating');
      await page.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
      // The page behind the modal dialog is hidden from the accessibility tree: find the button by its text.
      await expect(page.locator('button', { hasText: 'Get Votes!' }).isDisabled()).resolves.toBe(true);
      await shoot(page, `create-dialog-creating-${viewport}`);

      const created = await response;
      expect(created.status()).toBe(201);
      const session = (await created.json()) as CreatedSession;
      expect(session.logos).toHaveLength(4);
      expect(session.feedbackPrompt).toBe('Which logo feels most trustworthy?');
      await page.unroute('**/api/sessions');

      await atStep(page, 'plan');
      await waitForEvent(events, { name: 'survey_created', session_id: session.sessionId });
      await expect(page.getByRole('radio', { name: /Free/ }).isChecked()).resolves.toBe(true);
      await expectAccessible(page);
      await shoot(page, `create-dialog-plan-${viewport}`);

      await page.getByRole('radio', { name: /Paid/ }).check();
      const planSaved = page.waitForResponse((res) => res.url().endsWith(`/api/sessions/${session.sessionId}/plan`));
      await page.getByRole('button', { name: 'Continue' }).click();
      expect((await planSaved).status()).toBe(200);
      await expectToast(page, 'Thank you.', "you won't be charged");
      await atStep(page, 'email');
      await expect(adminPoll(session.sessionId)).resolves.toMatchObject({ paymentPlan: 'paid' });
      await shoot(page, `create-dialog-email-${viewport}`);

      await page.getByRole('button', { name: 'Send Links' }).click();
      await expectToast(page, 'Email required', 'Please enter your email address.');
      await page.getByLabel('Email address').fill('   ');
      await page.getByRole('button', { name: 'Send Links' }).click();
      await expectToast(page, 'Email required', 'Please enter your email address.');
      await expect(dialog(page).getAttribute('data-step')).resolves.toBe('email');

      const address = `creator-${viewport}-${Date.now()}@example.com`;
      await page.getByLabel('Email address').fill(`  ${address}  `);
      const notified = page.waitForRequest((req) => req.url().endsWith(`/api/sessions/${session.sessionId}/notify`));
      await page.getByRole('button', { name: 'Send Links' }).click();
      expect(JSON.parse((await notified).postData() ?? '{}')).toEqual({ email: address });
      await atStep(page, 'sent');
      await expect(dialog(page).getByRole('heading', { name: 'Email Sent!' }).count()).resolves.toBe(1);
      await expect(page.getByRole('textbox', { name: 'Voting link' }).inputValue()).resolves.toBe(session.votingUrl);
      await expect(page.getByRole('textbox', { name: 'Results link' }).inputValue()).resolves.toBe(session.resultsUrl);
      await expectAccessible(page);
      await shoot(page, `create-dialog-email-sent-${viewport}`);
      const mail = await mailCatcherClient(mailApiUrl).waitFor((m) => m.to.includes(address));
      expect(`${mail.text ?? ''}${mail.html ?? ''}`).toContain(session.votingUrl);

      await page.getByRole('button', { name: 'Start Voting Now' }).click();
      await expectVotingPage(page, session);
    },
  );

  it("shows 'Email Not Sent' with the error, the fallback text and the links when the e-mail fails, by keyboard alone", async () => {
    const { page } = await openLanding('desktop');
    await picker(page).setInputFiles(['logo-ring.png', 'logo-triangle.jpg'].map(fixture));
    await page.getByLabel('Feedback question (optional)').focus();
    await page.keyboard.press('Tab');
    const response = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Get Votes!');
    await page.keyboard.press('Enter');
    const session = (await (await response).json()) as CreatedSession;

    await atStep(page, 'plan');
    await page.getByRole('radio', { name: /Free/ }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('radio', { name: /Bulk/ }).isChecked()).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expectToast(page, 'Thank you.');
    await atStep(page, 'email');
    await expect(adminPoll(session.sessionId)).resolves.toMatchObject({ paymentPlan: 'bulk' });

    // An address the input's e-mail check takes but the notify service refuses: the sent step still follows, with the error.
    await page.getByLabel('Email address').focus();
    await page.keyboard.type('me@example');
    await page.keyboard.press('Enter');
    await atStep(page, 'sent');
    await expect(dialog(page).getByRole('heading', { name: 'Email Not Sent' }).count()).resolves.toBe(1);
    await expect(page.locator('[data-testid="email-error"]').innerText()).resolves.not.toBe('');
    await expect(dialog(page).innerText()).resolves.toContain('There was an issue sending the email. Please copy the links below.');
    await expect(page.getByRole('textbox', { name: 'Voting link' }).inputValue()).resolves.toBe(session.votingUrl);
    await expectAccessible(page);
    await shoot(page, 'create-dialog-email-not-sent-desktop');

    // Closing resets the dialog: a new poll starts again at the free plan with an empty address.
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    const second = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
    await getVotes(page).click();
    await second;
    await atStep(page, 'plan');
    await expect(page.getByRole('radio', { name: /Free/ }).isChecked()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Continue' }).click();
    await atStep(page, 'email');
    await expect(page.getByLabel('Email address').inputValue()).resolves.toBe('');
  });

  it("opens the poll with 'View Poll' from the e-mail step", async () => {
    const { page } = await openLanding('desktop');
    const session = await createPoll(page, ['logo-wave.svg', 'logo-square.png', 'logo-diamond.webp']);
    await atStep(page, 'plan');
    await page.getByRole('button', { name: 'Continue' }).click();
    await atStep(page, 'email');
    await page.getByRole('button', { name: 'View Poll' }).click();
    await expectVotingPage(page, session);
  });
});

describe('creation failures (spec section 8)', () => {
  async function failCreation(page: Page, logos: (string | FilePayload)[]): Promise<void> {
    await picker(page).setInputFiles(logos.map((logo) => (typeof logo === 'string' ? fixture(logo) : logo)));
    await getVotes(page).click();
  }

  it("shows the server's message when it refuses the logos, closes the dialog and keeps the page usable", async () => {
    const { page } = await openLanding('desktop');
    // An SVG the browser draws, refused by the server for its script: the message names the file.
    const scripted = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><script>alert(1)</script><circle cx="32" cy="32" r="30"/></svg>',
    );
    await failCreation(page, ['logo-ring.png', { name: 'scripted.svg', mimeType: 'image/svg+xml', buffer: scripted }]);
    const shown = await expectToast(page, 'Error');
    await expect(shown.getAttribute('data-variant')).resolves.toBe('destructive');
    const text = await shown.innerText();
    expect(text).not.toContain('Failed to create survey');
    expect(text).toContain('"scripted.svg"');
    await dialog(page).waitFor({ state: 'detached' });
    await expect(getVotes(page).isEnabled()).resolves.toBe(true);
    await shoot(page, 'create-failure-server-message-desktop');
  });

  it("falls back to 'Failed to create voting session' when the error has no message", async () => {
    const { page } = await openLanding('desktop');
    await page.route('**/api/sessions', (route) => route.fulfill({ status: 500, body: '' }));
    await failCreation(page, ['logo-ring.png', 'logo-wave.svg']);
    await expectToast(page, 'Error', 'Failed to create voting session');
    await dialog(page).waitFor({ state: 'detached' });
  });

  it("says 'Failed to create survey. Please try again.' when no answer arrives", async () => {
    const { page } = await openLanding('phone');
    await page.route('**/api/sessions', (route) => route.abort('connectionreset'));
    await failCreation(page, ['logo-ring.png', 'logo-wave.svg']);
    await expectToast(page, 'Error', 'Failed to create survey. Please try again.');
    await dialog(page).waitFor({ state: 'detached' });
    await shoot(page, 'create-failure-no-answer-phone');
  });

  it("says 'Incomplete session data received' when the answer lacks a sessionId", async () => {
    const { page } = await openLanding('desktop');
    await page.route('**/api/sessions', (route) => route.fulfill({ status: 201, contentType: 'application/json', body: '{}' }));
    await failCreation(page, ['logo-ring.png', 'logo-wave.svg']);
    await expectToast(page, 'Error', 'Incomplete session data received');
    await dialog(page).waitFor({ state: 'detached' });
  });
});
