/**
 * The creator's way through, with no dead end (docs/your-polls.md, docs/channels.md): the channels' links from the
 * dialog's plan step on, in the links e-mail (numbered, without the names the creator typed) and under 'Your polls';
 * 'Start Voting Now' landing on the voting page with a 'Your poll is live' note for the creator only; 'Your polls'
 * above the creation form; 'Get Votes!' never over the field being typed in; the shared-network choice in plain
 * words. On a phone (390 x 844) and a desktop (1280 x 900).
 */
import type { CreatedSession } from '@logovote/contracts';
import { mailCatcherClient } from '@logovote/devstack';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { screenshotPath } from '../support/browser';
import { createPoll } from '../support/polls';
import { testStack } from '../support/stack-env';
import { dismissToast, expectAccessible, expectNoHorizontalOverflow, expectToast, fixture, shoot, useBrowser, visit } from '../support/web';

const { gatewayUrl, mailApiUrl } = testStack();
const browser = useBrowser();

const DEVICES = {
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  desktop: { viewport: { width: 1280, height: 900 } },
} satisfies Record<string, BrowserContextOptions>;
type Device = keyof typeof DEVICES;
const BOTH = ['phone', 'desktop'] as const;

const CHANNELS = ['Instagram', 'Newsletter'];

/** A page of its own (own storage), allowed to use the clipboard; bypassCSP only so axe-core can be injected. */
const openDevice = (device: Device) =>
  browser.newPage(device === 'phone' ? 'phone' : 'desktop', {
    ...DEVICES[device],
    bypassCSP: true,
    permissions: ['clipboard-read', 'clipboard-write'],
  });

const picker = (page: Page) => page.locator('[data-testid="upload-area"] input[type="file"]');
const getVotes = (page: Page) => page.locator('button', { hasText: 'Get Votes!' });
const dialog = (page: Page) => page.getByTestId('creation-dialog');
const atStep = (page: Page, step: 'creating' | 'plan' | 'email' | 'sent') =>
  page.waitForSelector(`[data-testid="creation-dialog"][data-step="${step}"]`, { timeout: 20_000 });
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
const channelUrl = (session: CreatedSession, name: string) =>
  `${session.votingUrl}?via=${session.channels!.find((channel) => channel.name === name)!.id}`;

/** A screenshot of what the screen shows (not the whole page), kept under test-results/screenshots/. */
const shootScreen = (page: Page, name: string) => page.screenshot({ path: screenshotPath(name) });

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('no box: the element is not shown');
  return found;
}

/** Whether two elements' boxes overlap on the screen. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [one, two] = [await box(a), await box(b)];
  return one.x < two.x + two.width && two.x < one.x + one.width && one.y < two.y + two.height && two.y < one.y + one.height;
}

/** Adds the channels through the form's 'Channels (optional)' field. */
async function addChannels(page: Page, names: readonly string[]): Promise<void> {
  const field = page.getByRole('textbox', { name: 'Channel name' });
  for (const name of names) {
    await field.fill(name);
    await field.press('Enter');
  }
}

describe("the channels' links, the e-mail and 'Start Voting Now'", () => {
  it.each(BOTH)(
    'gives a creator every link from the plan step on, in the e-mail and on the voting page, on a %s',
    async (device) => {
      const page = await openDevice(device);
      await visit(page, '/', '[data-remote="create"]');
      await picker(page).setInputFiles(['logo-ring.png', 'logo-triangle.jpg', 'logo-wave.svg'].map(fixture));
      await addChannels(page, CHANNELS);
      await page.getByLabel('Feedback question (optional)').fill('Which mark for the bakery?');
      const response = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/sessions' && res.request().method() === 'POST');
      await getVotes(page).click();
      const session = (await (await response).json()) as CreatedSession;
      expect(session.channels?.map((channel) => channel.name)).toEqual(CHANNELS);

      // The plan step, where the voting link first shows: each channel's link too, with its copy button.
      await atStep(page, 'plan');
      for (const name of CHANNELS) {
        await expect(
          dialog(page)
            .getByRole('textbox', { name: `Voting link for ${name}` })
            .inputValue(),
        ).resolves.toBe(channelUrl(session, name));
      }
      await dialog(page).getByRole('button', { name: 'Copy voting link for instagram' }).click();
      await expectToast(page, 'Link copied!', 'Voting link for Instagram has been copied to clipboard.');
      await expect(clipboard(page)).resolves.toBe(channelUrl(session, 'Instagram'));
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page);
      await shoot(page, `creator-flow-plan-channels-${device}`);
      await dismissToast(page);

      // The e-mail step keeps them.
      await page.getByRole('button', { name: 'Continue' }).click();
      await atStep(page, 'email');
      await expect(dialog(page).getByRole('textbox', { name: 'Voting link for Newsletter' }).inputValue()).resolves.toBe(
        channelUrl(session, 'Newsletter'),
      );
      await shoot(page, `creator-flow-email-channels-${device}`);

      // The e-mail: each channel's link, numbered in the order named, and not one channel name.
      const address = `creator-flow-${device}-${Date.now()}@example.com`;
      await page.getByLabel('Email address').fill(address);
      await page.getByRole('button', { name: 'Send Links' }).click();
      await atStep(page, 'sent');
      const mail = await mailCatcherClient(mailApiUrl).waitFor((caught) => caught.to.includes(address));
      expect(mail.text).toContain(`Channel 1: ${channelUrl(session, 'Instagram')}\nChannel 2: ${channelUrl(session, 'Newsletter')}\n`);
      expect(mail.html).toContain(`Channel 1: <a href="${channelUrl(session, 'Instagram')}">`);
      for (const name of CHANNELS) expect(`${mail.subject}${mail.text ?? ''}${mail.html ?? ''}`).not.toContain(name);

      // 'Start Voting Now' goes to the voting page (the spec's), which tells its creator what to do next.
      await page.getByRole('button', { name: 'Start Voting Now' }).click();
      await page.waitForURL(`${gatewayUrl}/vote/${session.sessionId}`);
      const note = page.getByTestId('creator-note');
      await note.waitFor({ timeout: 15_000 });
      await expect(note.getByRole('heading', { name: 'Your poll is live: share it' }).count()).resolves.toBe(1);
      await page.waitForSelector('[data-remote="vote"][data-phase="voting"]');
      await note.getByRole('button', { name: 'Copy voting link', exact: true }).click();
      await expectToast(page, 'Link copied!', 'Voting link has been copied to clipboard.');
      await expect(clipboard(page)).resolves.toBe(session.votingUrl);
      await dismissToast(page);
      await note.getByRole('button', { name: 'Copy voting link for Newsletter' }).click();
      await expectToast(page, 'Link copied!', 'Voting link for Newsletter has been copied to clipboard.');
      await expect(clipboard(page)).resolves.toBe(channelUrl(session, 'Newsletter'));
      await dismissToast(page);
      // The vote stays within reach: the note sits above the logos, the bar still at the bottom of the screen.
      await expect(page.getByTestId('vote-button').isVisible()).resolves.toBe(true);
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page);
      await shoot(page, `creator-flow-vote-page-note-${device}`);

      await note.getByRole('link', { name: 'Watch results' }).click();
      await page.waitForURL(`${gatewayUrl}/results/${session.sessionId}`);
      await page.waitForSelector('[data-remote="results"][data-phase="results"]', { timeout: 15_000 });

      // Back home: 'Your polls' comes first, above the form, and copies each channel's link.
      await visit(page, '/', '[data-remote="create"]');
      const polls = page.getByTestId('your-polls');
      const row = page.locator(`[data-testid="your-poll"][data-session-id="${session.sessionId}"][data-state="success"]`);
      await row.waitFor({ timeout: 15_000 });
      expect((await box(polls)).y).toBeLessThan((await box(page.getByTestId('upload-area'))).y);
      await row.getByRole('button', { name: 'Copy voting link for Instagram' }).click();
      await expectToast(page, 'Link copied!', 'Voting link for Instagram has been copied to clipboard.');
      await expect(clipboard(page)).resolves.toBe(channelUrl(session, 'Instagram'));
      await dismissToast(page);
      await expectNoHorizontalOverflow(page);
      await expectAccessible(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shootScreen(page, `creator-flow-your-polls-first-${device}`);

      // 'Make a new poll' takes the creator to the form.
      await polls.getByRole('button', { name: 'Make a new poll ↓' }).click();
      await page.waitForFunction(() => document.activeElement?.closest('[data-testid="upload-area"]') !== null);
      const upload = await box(page.getByTestId('upload-area'));
      expect(upload.y).toBeGreaterThanOrEqual(0);
      expect(upload.y).toBeLessThan(DEVICES[device].viewport.height);
    },
    150_000,
  );

  it('shows the note to the creator only, and hides it for good when asked', async () => {
    const session = await createPoll({ logos: ['logo-ring.png', 'logo-square.png'], channels: ['Team'] });
    const voter = await openDevice('phone');
    await visit(voter, `/vote/${session.sessionId}`, '[data-remote="vote"][data-phase="voting"]');
    await expect(voter.getByTestId('creator-note').count()).resolves.toBe(0);
    await shoot(voter, 'creator-flow-vote-page-voter-phone');

    // The creator's browser: it keeps the poll's creator token (a manage link brings it).
    const creator = await openDevice('desktop');
    await visit(creator, `/results/${session.sessionId}#manage=${session.creatorToken}`, '[data-remote="results"]');
    await visit(creator, `/vote/${session.sessionId}`, '[data-testid="creator-note"]');
    await creator.getByRole('button', { name: 'Hide this note' }).click();
    await creator.getByTestId('creator-note').waitFor({ state: 'detached' });
    await creator.reload();
    await creator.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 15_000 });
    await expect(creator.getByTestId('creator-note').count()).resolves.toBe(0);
  });
});

describe("'Your polls' for a returning creator", () => {
  it.each(BOTH)(
    'lists the newest three above the form and the rest on request, on a %s',
    async (device) => {
      const made = [];
      for (let i = 0; i < 4; i += 1)
        made.push(await createPoll({ logos: ['logo-ring.png', 'logo-wave.svg'], feedbackPrompt: `Poll ${i + 1}` }));
      const remembered = made
        .map((session, i) => ({
          sessionId: session.sessionId,
          votingUrl: session.votingUrl,
          resultsUrl: session.resultsUrl,
          question: `Poll ${i + 1}`,
          createdAt: new Date(Date.now() - (4 - i) * 60_000).toISOString(),
          finished: true,
        }))
        .reverse();
      const page = await openDevice(device);
      await page.addInitScript((polls) => {
        if (localStorage.getItem('logovote.createdPolls') === null) localStorage.setItem('logovote.createdPolls', polls);
      }, JSON.stringify(remembered));
      await visit(page, '/', '[data-remote="create"]');
      const polls = page.getByTestId('your-polls');
      await page.waitForSelector('[data-testid="your-poll"][data-state="success"]', { timeout: 15_000 });
      await expect(polls.getByRole('heading', { level: 3 }).allInnerTexts()).resolves.toEqual(['Poll 4', 'Poll 3', 'Poll 2']);
      // First on the page: the list starts within the first screen.
      expect((await box(polls)).y).toBeLessThan(DEVICES[device].viewport.height / 2);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shootScreen(page, `creator-flow-returning-${device}`);
      await polls.getByRole('button', { name: 'Show all 4 polls' }).click();
      await expect(polls.getByRole('heading', { level: 3 }).allInnerTexts()).resolves.toEqual(['Poll 4', 'Poll 3', 'Poll 2', 'Poll 1']);
      await expectAccessible(page);
    },
    150_000,
  );
});

describe("'Get Votes!' and the fields", () => {
  it.each(BOTH)('never covers the field being typed in, on a %s', async (device) => {
    const page = await openDevice(device);
    await visit(page, '/', '[data-remote="create"]');
    await picker(page).setInputFiles(['logo-ring.png', 'logo-triangle.jpg', 'logo-wave.svg'].map(fixture));
    await page.getByTestId('logo-preview').nth(2).waitFor();
    const button = getVotes(page);
    const fields = [
      ...(await page.getByTestId('logo-preview').getByRole('textbox').all()),
      page.getByRole('textbox', { name: 'Channel name' }),
      page.getByLabel('Feedback question (optional)'),
    ];
    expect(fields.length).toBeGreaterThanOrEqual(5);
    for (const field of fields) {
      // As a person does: the page at the top, a click on the field, then typing.
      await page.evaluate(() => window.scrollTo(0, 0));
      await field.click();
      await field.pressSequentially('abc');
      await expect(overlap(button, field)).resolves.toBe(false);
    }
    await shootScreen(page, `creator-flow-typing-question-from-top-${device}`);

    // The reported case: the question low on the screen, where the button floats over it; a click on its
    // visible top, then typing.
    const question = page.getByLabel('Feedback question (optional)');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await question.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().top - (window.innerHeight - 110)));
    await expect(overlap(button, question)).resolves.toBe(true);
    await shootScreen(page, `creator-flow-question-under-button-before-focus-${device}`);
    const scrolled = await page.evaluate(() => window.scrollY);
    await question.click({ position: { x: 12, y: 8 } });
    await question.pressSequentially('Which one for the shop sign?');
    // The page hardly moved (the caret may nudge it a few pixels): the button left the question's way, the
    // question was not scrolled out from under it (that would take about 70 px).
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolled)).toBeLessThan(20);
    await expect(overlap(button, question)).resolves.toBe(false);
    await shootScreen(page, `creator-flow-typing-question-${device}`);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(overlap(button, question)).resolves.toBe(false);

    // Tab from the question reaches 'Get Votes!', on the screen.
    await question.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Get Votes!');
    const shown = await box(button);
    expect(shown.y + shown.height).toBeLessThanOrEqual(DEVICES[device].viewport.height);

    // Scrolled to the end with no field focused, the button sits below the form: no field ends under it.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    for (const field of fields) await expect(overlap(button, field)).resolves.toBe(false);
    await shoot(page, `creator-flow-get-votes-${device}`);
  });
});

describe('the shared-network choice', () => {
  it.each(BOTH)('says in plain words what it does, on a %s', async (device) => {
    const page = await openDevice(device);
    await visit(page, '/', '[data-remote="create"]');
    const choice = page.getByRole('checkbox', { name: 'Most voters share one network (an office, a school, event Wi-Fi)' });
    const hint = page.locator(`[id="${await choice.getAttribute('aria-describedby')}"]`);
    await expect(hint.innerText()).resolves.toBe(
      "Normally, once a few people have voted from the same network, each further voter's device spends a few seconds on a check that makes voting many times costly. With this on, dozens of people on one network vote without that wait. Leave it off for public polls.",
    );
    await hint.scrollIntoViewIfNeeded();
    await shootScreen(page, `creator-flow-shared-network-${device}`);
  });
});
