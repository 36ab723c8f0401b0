import { createHash } from 'node:crypto';
import type { TestVoteList } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  expectToast,
  fixture,
  launchBrowserWithHost,
  oversizeLogo,
  shoot,
  useBrowser,
  visit,
  type ViewportName,
} from '../support/web';

const { gatewayUrl } = testStack();

const browser = useBrowser();

const open = async (path: string, viewport: ViewportName, marker: string): Promise<Page> =>
  visit(await browser.newPage(viewport), path, marker);

describe('the image moderation test page', () => {
  const openModeration = (viewport: ViewportName = 'desktop') => open('/test/moderate', viewport, '[data-page="test-moderate"]');
  const imagePicker = (page: Page) => page.getByLabel('Image');
  const testButton = (page: Page) => page.getByRole('button', { name: /Test Moderation|Testing\.\.\./ });

  it("asks for a file first: 'No file selected'", async () => {
    const page = await openModeration();
    expect(await page.title()).toBe('Image Moderation Test · LogoVote');
    await expect(page.getByRole('heading', { level: 1, name: 'Image Moderation Test' }).count()).resolves.toBe(1);
    await testButton(page).click();
    await expectToast(page, 'No file selected', 'Please select an image to test moderation');
  });

  it.each(['phone', 'desktop'] as const)(
    'passes a real logo and shows its name, size, preview and result tabs on a %s',
    async (viewport) => {
      const page = await openModeration(viewport);
      const logo = fixture('logo-ring.png');
      await imagePicker(page).setInputFiles(logo);
      await expect(page.locator('[data-testid="selected-file"]').innerText()).resolves.toBe(
        `${logo.name} (${(logo.buffer.length / 1024).toFixed(2)} KB)`,
      );
      await page.getByRole('img', { name: 'Preview of the selected image' }).waitFor();
      await shoot(page, `test-moderate-selected-${viewport}`);

      await page.route('**/api/test/moderate', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 800));
        await route.continue();
      });
      await testButton(page).click();
      await page.getByRole('button', { name: 'Testing...' }).waitFor();
      const result = page.locator('[data-testid="moderation-result"]');
      await result.waitFor({ timeout: 20_000 });
      await expect(result.getByRole('heading', { name: 'Image Passed Validation' }).count()).resolves.toBe(1);
      await expect(result.getByRole('tabpanel').innerText()).resolves.toMatch(/isValid\s+true/);
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `test-moderate-passed-${viewport}`);

      await result.getByRole('tab', { name: 'Raw Response' }).click();
      await expect(result.getByRole('tabpanel').innerText()).resolves.not.toContain('No raw response data available');
      await shoot(page, `test-moderate-raw-${viewport}`);
    },
  );

  it("fails a file that is not an image: 'Image Failed Validation' with the reason", async () => {
    const page = await openModeration();
    await imagePicker(page).setInputFiles(fixture('not-an-image.png'));
    await testButton(page).click();
    const result = page.locator('[data-testid="moderation-result"]');
    await result.waitFor({ timeout: 20_000 });
    await expect(result.getByRole('heading', { name: 'Image Failed Validation' }).count()).resolves.toBe(1);
    await expect(result.getAttribute('data-valid')).resolves.toBe('false');
    await expect(result.getByRole('tabpanel').innerText()).resolves.toMatch(/isValid\s+false/);
    await shoot(page, 'test-moderate-failed-desktop');
  });

  it("says 'Failed to validate image' when the check itself fails (a file over 2 MB)", async () => {
    const page = await openModeration();
    await imagePicker(page).setInputFiles(oversizeLogo());
    await testButton(page).click();
    const shown = await expectToast(page, 'Error', 'Failed to validate image');
    await expect(shown.getAttribute('data-variant')).resolves.toBe('destructive');
  });

  it("shows 'No raw response data available' when the answer carries none", async () => {
    const page = await openModeration();
    await page.route('**/api/test/moderate', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ isValid: true, reason: 'Looks fine', rawResponse: null }),
      }),
    );
    await imagePicker(page).setInputFiles(fixture('logo-wave.svg'));
    await testButton(page).click();
    const result = page.locator('[data-testid="moderation-result"]');
    await result.getByRole('tab', { name: 'Raw Response' }).click();
    await expect(result.getByRole('tabpanel').innerText()).resolves.toBe('No raw response data available');
  });
});

describe('the fingerprint testing tool', () => {
  const openTool = (viewport: ViewportName = 'desktop') => open('/test/fingerprint', viewport, '[data-page="test-fingerprint"]');
  const currentFingerprint = (page: Page) => page.locator('[data-testid="current-fingerprint"]');

  async function waitForFingerprint(page: Page): Promise<string> {
    await page.waitForFunction(() =>
      /^[0-9a-f]{16}$/.test(document.querySelector('[data-testid="current-fingerprint"]')?.textContent ?? ''),
    );
    return currentFingerprint(page).innerText();
  }

  it.each(['phone', 'desktop'] as const)(
    'shows the fingerprint of spec section 3, stored under logoVotingFingerprint, on a %s',
    async (viewport) => {
      const page = await openTool(viewport);
      expect(await page.title()).toBe('Fingerprint Testing Tool · LogoVote');
      const fingerprint = await waitForFingerprint(page);
      const browserFacts = await page.evaluate(() => ({
        text: [navigator.userAgent, navigator.language, `${screen.width}x${screen.height}`, String(new Date().getTimezoneOffset())].join(
          '|',
        ),
        stored: localStorage.getItem('logoVotingFingerprint'),
      }));
      expect(fingerprint).toBe(createHash('sha256').update(browserFacts.text).digest('hex').slice(0, 16));
      expect(browserFacts.stored).toBe(fingerprint);

      const details = await page.locator('[data-testid="browser-details"]').innerText();
      for (const label of [
        'User agent',
        'Language',
        'Screen',
        'Timezone offset',
        'Platform',
        'CPU cores',
        'Device memory',
        'Local storage',
        'Plugins',
        'Stored fingerprint',
      ]) {
        expect(details).toContain(label);
      }
      expect(details).toContain(fingerprint);
      await expectAccessible(page);
      await expectNoHorizontalOverflow(page);
      await shoot(page, `test-fingerprint-${viewport}`);
    },
  );

  it('records test votes, marks the current fingerprint, and refreshes the history', async () => {
    const before = (await (await fetch(`${gatewayUrl}/test/fingerprint/votes`)).json()) as TestVoteList;
    const page = await openTool();
    const fingerprint = await waitForFingerprint(page);
    if (before.length === 0) {
      // The fingerprint shows before the history's first read answers ('Loading…'): wait for the answer.
      await page.getByText('No test votes have been recorded yet.').waitFor();
      await shoot(page, 'test-fingerprint-empty-desktop');
    }

    await page.getByRole('button', { name: 'Create New Test Session' }).click();
    await expectToast(page, 'Test session created');

    const voted = page.waitForResponse((res) => res.url().endsWith('/test/fingerprint/vote'));
    await page.getByRole('button', { name: 'Submit Test Vote' }).click();
    expect((await voted).status()).toBe(201);
    await expectToast(page, 'Test vote submitted');
    const table = page.locator('[data-testid="test-votes"]');
    await table.waitFor();
    const headers = await table.locator('th').allInnerTexts();
    expect(headers).toEqual(['ID', 'Session ID', 'Fingerprint', 'Created At', 'Match']);
    const mine = table.locator('tbody tr').filter({ hasText: fingerprint }).first();
    await expect(mine.innerText()).resolves.toContain('Current');
    await expect(mine.getByText('Match', { exact: true }).count()).resolves.toBe(1);
    await shoot(page, 'test-fingerprint-history-desktop');

    // A vote recorded elsewhere appears after 'Refresh Vote Data', with a cross: not this browser's.
    const other = await fetch(`${gatewayUrl}/test/fingerprint/vote`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Client-Fingerprint': '0123456789abcdef' },
      body: JSON.stringify({ testData: { from: 'e2e' } }),
    });
    expect(other.status).toBe(201);
    await page.getByRole('button', { name: 'Refresh Vote Data' }).click();
    const foreign = table.locator('tbody tr').filter({ hasText: '0123456789abcdef' }).first();
    await foreign.waitFor();
    await expect(foreign.getByText('No match', { exact: true }).count()).resolves.toBe(1);
    await expect(foreign.innerText()).resolves.not.toContain('Current');
  });

  it('reuses a stored fingerprint, and Clear Stored Fingerprint removes it and reloads the page', async () => {
    const page = await openTool();
    const computed = await waitForFingerprint(page);
    await page.evaluate(() => localStorage.setItem('logoVotingFingerprint', 'fedcba9876543210'));
    await page.reload();
    await page.waitForSelector('[data-page="test-fingerprint"]');
    await expect(waitForFingerprint(page)).resolves.toBe('fedcba9876543210');

    await page.evaluate(() => ((window as unknown as { beforeClear: boolean }).beforeClear = true));
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Clear Stored Fingerprint' }).click();
    await reloaded;
    await page.waitForSelector('[data-page="test-fingerprint"]');
    await expect(page.evaluate(() => (window as unknown as { beforeClear?: boolean }).beforeClear ?? false)).resolves.toBe(false);
    await expect(waitForFingerprint(page)).resolves.toBe(computed);
  });

  it('copies the fingerprint', async () => {
    const page = await browser.newPage('desktop', { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(`${gatewayUrl}/test/fingerprint`);
    const fingerprint = await waitForFingerprint(page);
    await page.getByRole('button', { name: 'Copy fingerprint' }).click();
    await expectToast(page, 'Copied!');
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(fingerprint);
  });

  it.each([
    ['GET', '/test/fingerprint/votes', 'Failed to fetch test votes', null],
    ['POST', '/test/fingerprint/session', 'Failed to create test session', 'Create New Test Session'],
    ['POST', '/test/fingerprint/vote', 'Failed to submit test vote', 'Submit Test Vote'],
  ] as const)("reports a failing %s %s as '%s'", async (_method, path, message, button) => {
    const page = await browser.newPage();
    await page.route(`**${path}`, (route) => route.abort('connectionrefused'));
    await page.goto(`${gatewayUrl}/test/fingerprint`);
    await waitForFingerprint(page);
    if (button) await page.getByRole('button', { name: button }).click();
    const shown = await expectToast(page, 'Error', message);
    await expect(shown.getAttribute('data-variant')).resolves.toBe('destructive');
  });

  it("says 'No fingerprint available' where the browser cannot make one (not a secure context)", async () => {
    const host = 'logovote-insecure.test';
    const insecure = await launchBrowserWithHost(host);
    try {
      const page = await insecure.newPage();
      await page.goto(`http://${host}:${new URL(gatewayUrl).port}/test/fingerprint`);
      await page.waitForSelector('[data-page="test-fingerprint"]', { timeout: 15_000 });
      await expect(page.evaluate(() => window.isSecureContext)).resolves.toBe(false);
      await page.waitForFunction(
        () => document.querySelector('[data-testid="current-fingerprint"]')?.textContent === 'No fingerprint available',
      );
      await page.getByRole('button', { name: 'Submit Test Vote' }).click();
      await expectToast(page, 'Error', 'No fingerprint available');
    } finally {
      await insecure.close();
    }
  });
});
