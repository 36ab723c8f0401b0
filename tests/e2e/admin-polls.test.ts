import type { AdminPoll, AdminPollList, CreatedSession } from '@logovote/contracts';
import type { Locator, Page } from 'playwright-core';
import {
  adminCredentials,
  connectStackDatabase,
  countVotes,
  createPollThroughApi,
  deleteAdminPoll,
  disconnectStackDatabase,
  listAdminPolls,
  objectExists,
  stackObjectStore,
  writePollToDatabase,
  type SeededPoll,
} from '../support/admin';
import { screenshotPath } from '../support/browser';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectFocusOn,
  expectNoHorizontalOverflow,
  expectToast,
  shoot,
  toast,
  useBrowser,
  visit,
  type ViewportName,
} from '../support/web';

const { gatewayUrl } = testStack();
const browser = useBrowser();
const store = stackObjectStore();

const DELETE_CONFIRMATION =
  'Are you sure you want to delete this poll? This action cannot be undone. All votes and logos associated with this poll will be permanently deleted.';

/**
 * The admin's browser: credentials for the gateway, and a fixed time zone and locale so dates read the same on any
 * machine. The gateway's Content-Security-Policy is bypassed so axe can be injected; 'works under the gateway's
 * Content-Security-Policy' below keeps it on.
 */
const ADMIN_BROWSER = { httpCredentials: adminCredentials(), timezoneId: 'Europe/Berlin', locale: 'en-US', bypassCSP: true };

// 14:30 UTC is 4:30 PM in Berlin (summer time).
const SIX_LOGOS_CREATED_AT = new Date('2025-05-24T14:30:00Z');
const SIX_LOGOS_DATE = 'May 24, 2025, 4:30 PM';
const SIX_LOGOS_PROMPT = 'Which logo feels most premium?';
const SIX_LOGOS_EMAIL = 'owner-of-six@example.com';
const SIX_LOGOS_VOTES = [3, 1, 0, 2, 5, 0];

let sixLogos: SeededPoll;
let brokenPoll: CreatedSession;
let missingFilename: string;
const madeHere: string[] = [];

beforeAll(async () => {
  await connectStackDatabase();
  // The API refuses more than 4 logos: this poll is written to the database, its images put in the bucket.
  sixLogos = await writePollToDatabase(store, {
    logos: ['logo-ring.png', 'logo-triangle.jpg', 'logo-diamond.webp', 'logo-wave.svg', 'logo-square.png', 'logo-ring.png'].map(
      (name, index) => ({ fixture: name, votes: SIX_LOGOS_VOTES[index]! }),
    ),
    feedbackPrompt: SIX_LOGOS_PROMPT,
    creatorEmail: SIX_LOGOS_EMAIL,
    paymentPlan: 'paid',
    createdAt: SIX_LOGOS_CREATED_AT,
  });
  // A poll made through the API whose first image is then removed from the bucket behind the services' back.
  brokenPoll = await createPollThroughApi(['logo-square.png', 'logo-wave.svg']);
  missingFilename = brokenPoll.logos[0]!.filename;
  await store.client.removeObject(store.bucket, missingFilename);
  madeHere.push(sixLogos.pollId, brokenPoll.sessionId);
});

afterAll(async () => {
  for (const pollId of madeHere) await deleteAdminPoll(pollId);
  await disconnectStackDatabase();
});

/** Every HEAD check the page makes, by file name, with its status. */
function recordLogoChecks(page: Page): Map<string, number> {
  const checks = new Map<string, number>();
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    if (response.request().method() === 'HEAD' && pathname.startsWith('/api/logos/'))
      checks.set(pathname.slice('/api/logos/'.length), response.status());
  });
  return checks;
}

async function waitForChecks(page: Page, checks: Map<string, number>, filenames: readonly string[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!filenames.every((name) => checks.has(name))) {
    if (Date.now() > deadline) throw new Error(`no HEAD check of ${filenames.filter((name) => !checks.has(name)).join(', ')}`);
    await page.waitForTimeout(100);
  }
}

/** Opens the admin page; resolves with the list the page received. */
async function openAdmin(viewport: ViewportName = 'desktop') {
  const page = await browser.newPage(viewport, ADMIN_BROWSER);
  const checks = recordLogoChecks(page);
  const listed = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/admin/polls' && res.request().method() === 'GET');
  await visit(page, '/admin/polls', '[data-remote="admin"]');
  const response = await listed;
  expect(response.status()).toBe(200);
  // The first page of the list, and the number of polls in all (the list comes a page at a time).
  const polls = (await response.json()) as AdminPollList;
  const total = Number(response.headers()['x-total-count']);
  await page.getByRole('heading', { level: 1, name: 'Poll Management' }).waitFor();
  return { page, polls, total, checks };
}

const card = (page: Page, pollId: string) => page.locator(`[data-testid="poll-card"][data-poll-id="${pollId}"]`);
const details = (page: Page) => page.locator('[data-testid="poll-details"]');
const deleteDialog = (page: Page) => page.getByRole('alertdialog');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * A poll's card, loading more of the list until it shows: the list comes a page at a time, and other
 * test files create polls meanwhile, so a poll seeded earlier may no longer be on the first page.
 */
async function revealCard(page: Page, pollId: string): Promise<Locator> {
  const target = card(page, pollId);
  const loadMore = page.getByTestId('load-more-polls');
  while ((await target.count()) === 0 && (await loadMore.count()) > 0) {
    await loadMore.click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="load-more-polls"]')?.hasAttribute('disabled'));
  }
  return target;
}

async function selectPoll(page: Page, pollId: string): Promise<Locator> {
  await (await revealCard(page, pollId)).getByRole('button').click();
  await details(page).waitFor();
  await expect(details(page).getByTestId('poll-id').innerText()).resolves.toBe(pollId);
  return details(page);
}

/** The rendered colour of an element as RGB (the browser converts whatever colour space the CSS uses). */
function renderedColour(locator: Locator): Promise<[number, number, number]> {
  return locator.evaluate((element) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d')!;
    context.fillStyle = getComputedStyle(element).color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!] as [number, number, number];
  });
}

async function expectRed(locator: Locator): Promise<void> {
  const [r, g, b] = await renderedColour(locator);
  expect(r).toBeGreaterThan(180);
  expect(g).toBeLessThan(90);
  expect(b).toBeLessThan(90);
}

describe.each(['phone', 'desktop'] as const)('the admin polls page on a %s', (viewport) => {
  it("shows 'Loading polls...' while the list loads", async () => {
    const page = await browser.newPage(viewport, ADMIN_BROWSER);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/polls', async (route) => {
      await held;
      await route.continue();
    });
    await visit(page, '/admin/polls', '[data-remote="admin"]');
    const loading = page.getByRole('status').filter({ hasText: 'Loading polls...' });
    await loading.waitFor();
    await shoot(page, `admin-loading-${viewport}`);
    release();
    await page.getByRole('heading', { level: 1, name: 'Poll Management' }).waitFor();
    await expect(loading.count()).resolves.toBe(0);
  });

  it("lists every poll under 'Poll Management' with 'N total polls', and asks to select one", async () => {
    const { page, polls, total } = await openAdmin(viewport);
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(total).toBeGreaterThanOrEqual(polls.length);
    await expect(page.getByTestId('poll-count').innerText()).resolves.toBe(`${total} total polls`);
    await expect(page.locator('[data-testid="poll-card"]').count()).resolves.toBe(polls.length);
    await expect(
      page.locator('[data-testid="poll-card"]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-poll-id'))),
    ).resolves.toEqual(polls.map((poll) => poll.pollId));
    const empty = page.getByTestId('no-poll-selected');
    await expect(empty.getByRole('heading', { name: 'Select a Poll' }).count()).resolves.toBe(1);
    await expect(empty.innerText()).resolves.toContain('Choose a poll from the sidebar to view its details');
    await expect(details(page).count()).resolves.toBe(0);
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await shoot(page, `admin-list-${viewport}`);
  });

  it("shows a poll's card: prompt, date, total votes, 4 thumbnails with vote badges and '+2' for the other logos", async () => {
    const { page, checks } = await openAdmin(viewport);
    const six = await revealCard(page, sixLogos.pollId);
    await six.scrollIntoViewIfNeeded();
    await expect(six.getByRole('button').innerText()).resolves.toBe(SIX_LOGOS_PROMPT);
    await expect(six.getByTestId('poll-created-at').innerText().then(oneLine)).resolves.toBe(SIX_LOGOS_DATE);
    await expect(six.getByTestId('poll-total-votes').innerText()).resolves.toBe('11 votes');

    const thumbnails = six.getByTestId('poll-thumbnail');
    await expect(thumbnails.count()).resolves.toBe(4);
    await expect(thumbnails.getByRole('img').evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt')))).resolves.toEqual(
      sixLogos.logos.slice(0, 4).map((logo) => logo.originalName),
    );
    await expect(six.getByTestId('thumbnail-votes').evaluateAll((badges) => badges.map((b) => b.getAttribute('title')))).resolves.toEqual([
      '3 votes',
      '1 vote',
      '0 votes',
      '2 votes',
    ]);
    await expect(six.getByTestId('thumbnail-votes').evaluateAll((badges) => badges.map((b) => b.firstChild?.textContent))).resolves.toEqual(
      ['3', '1', '0', '2'],
    );
    await expect(six.getByTestId('poll-more-logos').locator('[aria-hidden="true"]').innerText()).resolves.toBe('+2');

    // The thumbnails of a card in view are checked with HEAD, load, and carry no warning.
    await waitForChecks(
      page,
      checks,
      sixLogos.logos.slice(0, 4).map((logo) => logo.filename),
    );
    for (const logo of sixLogos.logos.slice(0, 4)) expect(checks.get(logo.filename)).toBe(200);
    await page.waitForFunction(
      (pollId) =>
        [...document.querySelectorAll<HTMLImageElement>(`[data-poll-id="${pollId}"] [data-testid="poll-thumbnail"] img`)].every(
          (img) => img.complete && img.naturalWidth > 0,
        ),
      sixLogos.pollId,
    );
    await expect(six.getByTestId('broken-image-warning').count()).resolves.toBe(0);
    await six.screenshot({ path: screenshotPath(`admin-card-six-logos-${viewport}`) });
  });

  it('shows the selected poll: details, plan badge, question, e-mail, payment preference, every logo and the three stats', async () => {
    const { page, checks } = await openAdmin(viewport);
    const panel = await selectPoll(page, sixLogos.pollId);
    await expect(card(page, sixLogos.pollId).getByRole('button').getAttribute('aria-current')).resolves.toBe('true');
    // The keyboard and screen reader continue at the details.
    await expectFocusOn(page.getByRole('heading', { name: 'Poll Details', exact: true }));

    await expect(panel.getByRole('heading', { level: 2, name: 'Poll Details' }).count()).resolves.toBe(1);
    const text = oneLine(await panel.innerText());
    expect(text).toContain(`ID: ${sixLogos.pollId}`);
    expect(text).toContain(`Created ${SIX_LOGOS_DATE}`);
    await expect(panel.getByTestId('poll-plan').innerText()).resolves.toBe('paid plan');
    const field = (label: string) => panel.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd');
    await expect(field('Question to Answer').innerText()).resolves.toBe(SIX_LOGOS_PROMPT);
    await expect(field('Creator Email').innerText()).resolves.toBe(SIX_LOGOS_EMAIL);
    await expect(field('Payment Preference').innerText()).resolves.toContain('Paid');

    const logos = panel.getByTestId('detail-logo');
    await expect(logos.count()).resolves.toBe(6);
    await expect(panel.getByTestId('detail-logo-name').allInnerTexts()).resolves.toEqual(sixLogos.logos.map((logo) => logo.originalName));
    for (const logo of sixLogos.logos) await expect(panel.getByText(logo.filename, { exact: true }).count()).resolves.toBe(1);
    await expect(panel.getByTestId('detail-logo-votes').allInnerTexts()).resolves.toEqual([
      '3 votes',
      '1 vote',
      '0 votes',
      '2 votes',
      '5 votes',
      '0 votes',
    ]);
    await waitForChecks(
      page,
      checks,
      sixLogos.logos.map((logo) => logo.filename),
    );
    await expect(panel.getByTestId('detail-logo-broken').count()).resolves.toBe(0);

    const stats = Object.fromEntries(
      (await panel
        .getByTestId('poll-stat')
        .evaluateAll((els) => els.map((el) => [el.querySelector('dt')?.textContent, el.querySelector('dd')?.textContent]))) as [
        string,
        string,
      ][],
    );
    expect(stats).toEqual({ 'Total Votes': '11', 'Logo Options': '6', 'Highest Votes': '5' });
    await expect(panel.getByRole('button', { name: 'Delete Poll', exact: true }).count()).resolves.toBe(1);

    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid="detail-logo"] img')].every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );
    await expectNoHorizontalOverflow(page);
    await expectAccessible(page);
    await shoot(page, `admin-details-six-logos-${viewport}`);
  });

  it("marks a logo whose image cannot be fetched with a red warning, and reads 'No question provided' and 'No email provided'", async () => {
    const { page, checks } = await openAdmin(viewport);
    const broken = await revealCard(page, brokenPoll.sessionId);
    await broken.scrollIntoViewIfNeeded();
    await expect(broken.getByRole('button').innerText()).resolves.toBe('No question provided');
    await waitForChecks(
      page,
      checks,
      brokenPoll.logos.map((logo) => logo.filename),
    );
    expect(checks.get(missingFilename)).toBe(404);
    expect(checks.get(brokenPoll.logos[1]!.filename)).toBe(200);

    const thumbnails = broken.getByTestId('poll-thumbnail');
    await thumbnails.first().locator('[data-testid="broken-image-warning"]').waitFor();
    await expect(thumbnails.evaluateAll((items) => items.map((item) => item.getAttribute('data-broken')))).resolves.toEqual([
      'true',
      'false',
    ]);
    const warning = thumbnails.first().getByRole('img', { name: /cannot be loaded/ });
    await expect(warning.count()).resolves.toBe(1);
    await expectRed(warning);
    await broken.screenshot({ path: screenshotPath(`admin-card-broken-image-${viewport}`) });

    const panel = await selectPoll(page, brokenPoll.sessionId);
    const field = (label: string) => panel.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd');
    await expect(field('Question to Answer').innerText()).resolves.toBe('No question provided');
    await expect(field('Creator Email').innerText()).resolves.toBe('No email provided');
    await expect(panel.getByTestId('poll-plan').innerText()).resolves.toBe('free plan');
    await expect(
      panel.getByTestId('detail-logo').evaluateAll((items) => items.map((item) => item.getAttribute('data-broken'))),
    ).resolves.toEqual(['true', 'false']);
    const indicator = panel.getByTestId('detail-logo-broken');
    await expect(indicator.count()).resolves.toBe(1);
    await expect(indicator.innerText()).resolves.toContain('Image not available');
    await expectRed(indicator.getByRole('img'));
    await expectAccessible(page);
    await shoot(page, `admin-details-broken-image-${viewport}`);
  });

  it("says 'No polls found' when there are none", async () => {
    const page = await browser.newPage(viewport, ADMIN_BROWSER);
    await page.route('**/api/admin/polls', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }));
    await visit(page, '/admin/polls', '[data-testid="no-polls"]');
    await expect(page.getByTestId('no-polls').innerText()).resolves.toBe('No polls found');
    await expect(page.getByTestId('poll-count').count()).resolves.toBe(0);
    await expect(page.getByRole('heading', { name: 'Select a Poll' }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await shoot(page, `admin-no-polls-${viewport}`);
  });
});

describe('deleting a poll', () => {
  it('asks first (Cancel keeps it), then deletes it with its images, toasts, refreshes the list and clears the selection', async () => {
    const made = await createPollThroughApi(['logo-ring.png', 'logo-triangle.jpg', 'logo-diamond.webp'], 'Delete me from the admin page');
    madeHere.push(made.sessionId);
    const { page } = await openAdmin('desktop');
    const panel = await selectPoll(page, made.sessionId);

    await panel.getByRole('button', { name: 'Delete Poll', exact: true }).click();
    const dialog = deleteDialog(page);
    await dialog.waitFor();
    await expect(dialog.getByRole('heading', { name: 'Delete Poll' }).count()).resolves.toBe(1);
    await expect(dialog.innerText().then(oneLine)).resolves.toContain(DELETE_CONFIRMATION);
    await expect(dialog.getByRole('button').allInnerTexts()).resolves.toEqual(['Cancel', 'Delete Poll']);
    await expectAccessible(page);
    // The viewport only: a full-page shot would stretch the fixed overlay.
    await page.screenshot({ path: screenshotPath('admin-delete-dialog-desktop') });

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(details(page).getByTestId('poll-id').innerText()).resolves.toBe(made.sessionId);
    await expect(listAdminPolls().then((polls) => polls.some((poll) => poll.pollId === made.sessionId))).resolves.toBe(true);

    const lists: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/admin/polls') lists.push(Date.now());
    });
    await panel.getByRole('button', { name: 'Delete Poll', exact: true }).click();
    const deleted = page.waitForResponse((res) => res.request().method() === 'DELETE');
    const refreshed = page.waitForResponse((res) => res.request().method() === 'GET' && new URL(res.url()).pathname === '/api/admin/polls');
    await dialog.getByRole('button', { name: 'Delete Poll', exact: true }).click();
    const answer = await deleted;
    expect(new URL(answer.url()).pathname).toBe(`/api/admin/polls/${made.sessionId}`);
    expect(answer.status()).toBe(200);
    await expectToast(page, 'Poll deleted', 'The poll has been successfully deleted.');
    await expect(toast(page).getAttribute('data-variant')).resolves.toBe('default');

    const refreshedPage = await refreshed;
    const list = (await refreshedPage.json()) as AdminPoll[];
    expect(lists).toHaveLength(1);
    expect(list.some((poll) => poll.pollId === made.sessionId)).toBe(false);
    await card(page, made.sessionId).waitFor({ state: 'detached' });
    await expect(page.getByTestId('poll-count').innerText()).resolves.toBe(`${refreshedPage.headers()['x-total-count']} total polls`);
    await page.getByRole('heading', { name: 'Select a Poll' }).waitFor();
    await expect(details(page).count()).resolves.toBe(0);
    await shoot(page, 'admin-deleted-desktop');

    // Gone from the database, the API and the bucket.
    await expect(listAdminPolls().then((polls) => polls.some((poll) => poll.pollId === made.sessionId))).resolves.toBe(false);
    await expect(fetch(`${gatewayUrl}/api/sessions/${made.sessionId}`).then((res) => res.status)).resolves.toBe(404);
    for (const logo of made.logos) await expect(objectExists(store, logo.filename)).resolves.toBe(false);
  });

  it('works by keyboard alone on a phone, and removes the votes too', async () => {
    const seeded = await writePollToDatabase(store, {
      logos: [
        { fixture: 'logo-square.png', votes: 2 },
        { fixture: 'logo-wave.svg', votes: 1 },
      ],
      feedbackPrompt: 'Keyboard deletion',
    });
    madeHere.push(seeded.pollId);
    await expect(countVotes(seeded.pollId)).resolves.toBe(3);
    const { page } = await openAdmin('phone');

    await (await revealCard(page, seeded.pollId)).getByRole('button').focus();
    await page.keyboard.press('Enter');
    await details(page).waitFor();
    await expectFocusOn(page.getByRole('heading', { name: 'Poll Details', exact: true }));
    await page.keyboard.press('Tab');
    await expectFocusOn(page.getByRole('button', { name: 'Delete Poll', exact: true }));

    await page.keyboard.press('Enter');
    await deleteDialog(page).waitFor();
    // The safe answer has the focus.
    await expectFocusOn(deleteDialog(page).getByRole('button', { name: 'Cancel' }));
    // The viewport only: a full-page shot would stretch the fixed overlay.
    await page.screenshot({ path: screenshotPath('admin-delete-dialog-phone') });
    await page.keyboard.press('Escape');
    await deleteDialog(page).waitFor({ state: 'detached' });
    await expectFocusOn(page.getByRole('button', { name: 'Delete Poll', exact: true }));

    await page.keyboard.press('Enter');
    await deleteDialog(page).waitFor();
    await page.keyboard.press('Tab');
    const deleted = page.waitForResponse((res) => res.request().method() === 'DELETE');
    await page.keyboard.press('Enter');
    expect((await deleted).status()).toBe(200);
    await expectToast(page, 'Poll deleted', 'The poll has been successfully deleted.');
    await card(page, seeded.pollId).waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Select a Poll' }).waitFor();
    // The Delete Poll button went with the poll: the keyboard continues at the list.
    await expectFocusOn(page.getByRole('heading', { name: 'Poll Management', exact: true }));
    await shoot(page, 'admin-deleted-phone');

    await expect(countVotes(seeded.pollId)).resolves.toBe(0);
    for (const logo of seeded.logos) await expect(objectExists(store, logo.filename)).resolves.toBe(false);
  });

  it("says 'Failed to delete poll. Please try again.' when the server refuses (the poll was deleted behind the page's back)", async () => {
    const made = await createPollThroughApi(['logo-ring.png', 'logo-wave.svg'], 'Deleted elsewhere');
    madeHere.push(made.sessionId);
    const { page } = await openAdmin('desktop');
    const panel = await selectPoll(page, made.sessionId);
    expect(await deleteAdminPoll(made.sessionId)).toBe(200);

    await panel.getByRole('button', { name: 'Delete Poll', exact: true }).click();
    const deleted = page.waitForResponse((res) => res.request().method() === 'DELETE');
    await deleteDialog(page).getByRole('button', { name: 'Delete Poll', exact: true }).click();
    expect((await deleted).status()).toBe(404);
    const shown = await expectToast(page, 'Error', 'Failed to delete poll. Please try again.');
    await expect(shown.getAttribute('data-variant')).resolves.toBe('destructive');
    await deleteDialog(page).waitFor({ state: 'detached' });
    // The refreshed list no longer has it, so nothing is selected.
    await card(page, made.sessionId).waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Select a Poll' }).waitFor();
    await shoot(page, 'admin-delete-failed-desktop');
  });

  it('says the same when the delete gets no answer, and keeps the poll and its selection', async () => {
    const made = await createPollThroughApi(['logo-square.png', 'logo-triangle.jpg'], 'Network trouble');
    madeHere.push(made.sessionId);
    const { page } = await openAdmin('phone');
    const panel = await selectPoll(page, made.sessionId);
    await page.route(`**/api/admin/polls/${made.sessionId}`, (route) => route.abort('connectionreset'));

    await panel.getByRole('button', { name: 'Delete Poll', exact: true }).click();
    await deleteDialog(page).getByRole('button', { name: 'Delete Poll', exact: true }).click();
    await expectToast(page, 'Error', 'Failed to delete poll. Please try again.');
    await deleteDialog(page).waitFor({ state: 'detached' });
    await expect(details(page).getByTestId('poll-id').innerText()).resolves.toBe(made.sessionId);
    await expect(card(page, made.sessionId).count()).resolves.toBe(1);
    await expect(listAdminPolls().then((polls) => polls.some((poll) => poll.pollId === made.sessionId))).resolves.toBe(true);
    await shoot(page, 'admin-delete-failed-phone');
  });
});

describe('a long list', () => {
  it("shows the first page with the whole list's count, and 'Load more polls' adds the next pages until none is left", async () => {
    const all: AdminPollList = Array.from({ length: 45 }, (_, index) => ({
      pollId: `PagedList${String(index).padStart(7, '0')}`,
      feedbackPrompt: `Paged poll ${index + 1}`,
      createdAt: new Date(Date.UTC(2025, 0, 1, 12, 59 - index)).toISOString(),
      totalVotes: 0,
      creatorEmail: null,
      paymentPlan: 'free',
      logos: [],
    }));
    const page = await browser.newPage('desktop', ADMIN_BROWSER);
    // The server's pages: 20, 20, then 5, each pointing at the next with Link rel="next".
    await page.route('**/api/admin/polls*', (route) => {
      const before = Number(new URL(route.request().url()).searchParams.get('before') ?? 45);
      const start = 45 - before;
      const headers: Record<string, string> = { 'X-Total-Count': '45' };
      if (start + 20 < 45) headers.Link = `</api/admin/polls?before=${before - 20}&limit=20>; rel="next"`;
      return route.fulfill({ status: 200, contentType: 'application/json', headers, body: JSON.stringify(all.slice(start, start + 20)) });
    });
    await visit(page, '/admin/polls', '[data-testid="poll-card"]');
    await expect(page.getByTestId('poll-count').innerText()).resolves.toBe('45 total polls');
    await expect(page.getByTestId('poll-card').count()).resolves.toBe(20);
    const loadMore = page.getByTestId('load-more-polls');
    await expect(loadMore.innerText()).resolves.toBe('Load more polls (20 of 45 shown)');
    await loadMore.click();
    await page.locator('[data-testid="poll-card"]').nth(39).waitFor();
    await loadMore.click();
    await page.locator('[data-testid="poll-card"]').nth(44).waitFor();
    await expect(loadMore.count()).resolves.toBe(0);
    await expect(
      page.locator('[data-testid="poll-card"]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-poll-id'))),
    ).resolves.toEqual(all.map((poll) => poll.pollId));
    await shoot(page, 'admin-paged-list-desktop');
  });

  it('checks the thumbnails of the cards near the viewport only, and the others once scrolled to', async () => {
    const many: AdminPollList = Array.from({ length: 60 }, (_, index) => ({
      pollId: `LongList${String(index).padStart(8, '0')}`,
      feedbackPrompt: `Poll number ${index + 1}`,
      createdAt: new Date(Date.UTC(2025, 0, 1, 12, index)).toISOString(),
      totalVotes: 0,
      creatorEmail: null,
      paymentPlan: 'free',
      logos: Array.from({ length: 4 }, (__, n) => ({
        id: `logo-${n}`,
        filename: `longList${String(index).padStart(3, '0')}logo${n}xxxxxxxx.png`,
        originalName: `logo-${n}.png`,
        name: `logo-${n}`,
        voteCount: 0,
        backdrop: 'light',
      })),
    }));
    const page = await browser.newPage('desktop', ADMIN_BROWSER);
    const checks = recordLogoChecks(page);
    await page.route('**/api/admin/polls', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(many) }),
    );
    await visit(page, '/admin/polls', '[data-testid="poll-card"]');
    await expect(page.getByTestId('poll-count').innerText()).resolves.toBe('60 total polls');

    const filenamesOf = (poll: AdminPoll) => poll.logos.map((logo) => logo.filename);
    await waitForChecks(page, checks, filenamesOf(many[0]!));
    const last = many[many.length - 1]!;
    expect(filenamesOf(last).some((name) => checks.has(name))).toBe(false);
    expect(checks.size).toBeLessThan(many.length * 4);

    await card(page, last.pollId).scrollIntoViewIfNeeded();
    await waitForChecks(page, checks, filenamesOf(last));
    // These files do not exist: the card, now in view, carries the warning on each thumbnail.
    await card(page, last.pollId).getByTestId('broken-image-warning').nth(3).waitFor();
    await expect(card(page, last.pollId).getByTestId('broken-image-warning').count()).resolves.toBe(4);
  });
});

describe("the gateway's Content-Security-Policy", () => {
  it('lets the admin page load, show its images and delete nothing by itself, with no violation', async () => {
    const page = await browser.newPage('desktop', { ...ADMIN_BROWSER, bypassCSP: false });
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Content-Security-Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(`${gatewayUrl}/admin/polls`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByTestId('poll-count').waitFor({ timeout: 15_000 });
    await selectPoll(page, sixLogos.pollId);
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('[data-testid="detail-logo"] img')].every(
        (img) => img.complete && img.naturalWidth > 0,
      ),
    );
    await details(page).getByRole('button', { name: 'Delete Poll', exact: true }).click();
    await deleteDialog(page).getByRole('button', { name: 'Cancel' }).click();
    await deleteDialog(page).waitFor({ state: 'detached' });
    expect(violations).toEqual([]);
  });
});

describe('a list that cannot be loaded', () => {
  it('says so and loads it again on request', async () => {
    const page = await browser.newPage('phone', ADMIN_BROWSER);
    await page.route('**/api/admin/polls', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"Internal server error"}' }),
    );
    await visit(page, '/admin/polls', '[data-testid="polls-error"]');
    await expect(page.getByTestId('polls-error').innerText()).resolves.toContain('The polls could not be loaded.');
    await shoot(page, 'admin-load-failed-phone');
    await page.unroute('**/api/admin/polls');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('poll-count').waitFor();
  });
});
