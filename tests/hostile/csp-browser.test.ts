/**
 * The Content-Security-Policy in a real browser: every route of spec section 2 renders under it, and using
 * the pages (choosing logos and opening the creation dialog, voting and opening the thank-you dialog,
 * previewing an image on the moderation test) reports no violation and no console error about it.
 */
import type { CreatedSession } from '@logovote/contracts';
import type { Page } from 'playwright-core';
import { testStack } from '../support/stack-env';
import { fixture, useBrowser, visit } from '../support/web';
import { validImages } from './support/fixtures';
import { targetOf } from './support/http';
import { createPollVia } from './support/polls';

const { gatewayUrl, admin } = testStack();
const browser = useBrowser();

let poll: CreatedSession;

beforeAll(async () => {
  const images = await validImages();
  poll = await createPollVia(targetOf(gatewayUrl, '127.0.0.82'), [images.png, images.webp]);
});

/** A page whose CSP violations (the DOM event) and CSP console messages are collected. */
async function watchedPage(): Promise<{ page: Page; violations: string[] }> {
  const page = await browser.newPage('desktop', { httpCredentials: { username: admin.user, password: admin.password } });
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (line: string) => violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (line: string) => void }).reportCspViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text()))
      violations.push(`console: ${message.text()}`);
  });
  return { page, violations };
}

const ROUTES: [string, string][] = [
  ['/', '[data-remote="create"]'],
  ['/vote/{id}', '[data-remote="vote"]'],
  ['/results/{id}', '[data-remote="results"]'],
  ['/admin/polls', '[data-remote="admin"]'],
  ['/terms', '[data-page="terms"]'],
  ['/test/moderate', '[data-page="test-moderate"]'],
  ['/test/fingerprint', '[data-page="test-fingerprint"]'],
  ['/no/such/page', '[data-page="not-found"]'],
];

describe('every route under the Content-Security-Policy', () => {
  it.each(ROUTES)('%s renders and reports no violation', async (route, marker) => {
    const { page, violations } = await watchedPage();
    const response = await page.goto(`${gatewayUrl}${route.replace('{id}', poll.sessionId)}`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector(marker, { timeout: 15_000 });
    expect(await page.locator('[data-testid="remote-fallback"]').count()).toBe(0);
    // Remotes load their chunks and styles after the marker: give them a moment to finish.
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
  });
});

describe('using the pages under the Content-Security-Policy', () => {
  it('choosing logos (blob: previews) and opening the creation dialog', async () => {
    const { page, violations } = await watchedPage();
    await visit(page, '/', '[data-remote="create"]');
    await page
      .locator('[data-testid="upload-area"] input[type="file"]')
      .setInputFiles([fixture('logo-ring.png'), fixture('logo-wave.svg')]);
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    await page.waitForSelector('[data-testid="creation-dialog"][data-step="plan"]', { timeout: 20_000 });
    expect(violations).toEqual([]);
  });

  it('voting and opening the thank-you dialog', async () => {
    const { page, violations } = await watchedPage();
    await visit(page, `/vote/${poll.sessionId}`, '[data-testid="vote-button"]');
    await page.locator('[data-testid="vote-button"]').click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog', { name: 'Thank you for your vote!' }).waitFor();
    expect(violations).toEqual([]);
  });

  it('previewing and testing an image on the moderation test page', async () => {
    const { page, violations } = await watchedPage();
    await visit(page, '/test/moderate', '[data-page="test-moderate"]');
    await page.getByLabel('Image').setInputFiles(fixture('logo-ring.png'));
    await page.getByRole('img', { name: 'Preview of the selected image' }).waitFor();
    await page.getByRole('button', { name: 'Test Moderation' }).click();
    await page.locator('[data-testid="moderation-result"]').waitFor({ timeout: 30_000 });
    expect(violations).toEqual([]);
  });
});
