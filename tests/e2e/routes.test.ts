import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../support/browser';
import { controlComponent } from '../support/control';
import { testStack } from '../support/stack-env';

const { gatewayUrl, admin } = testStack();

/** Every route of spec section 2 and what must render there: a remote, or a page the shell owns. */
const ROUTES = [
  { path: '/', marker: '[data-remote="create"]', shot: 'route-landing' },
  { path: '/vote/AAAAAAAAAAAAAAAA', marker: '[data-remote="vote"]', shot: 'route-vote' },
  { path: '/results/AAAAAAAAAAAAAAAA', marker: '[data-remote="results"]', shot: 'route-results' },
  { path: '/admin/polls', marker: '[data-remote="admin"]', shot: 'route-admin' },
  { path: '/terms', marker: '[data-page="terms"]', shot: 'route-terms' },
  { path: '/test/moderate', marker: '[data-page="test-moderate"]', shot: 'route-test-moderate' },
  { path: '/test/fingerprint', marker: '[data-page="test-fingerprint"]', shot: 'route-test-fingerprint' },
  { path: '/no/such/page', marker: '[data-page="not-found"]', shot: 'route-not-found' },
];

let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await browser.newContext({
    httpCredentials: { username: admin.user, password: admin.password },
    viewport: { width: 1280, height: 800 },
  });
});
afterAll(async () => {
  await context.close();
  await browser.close();
});

async function visit(path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${gatewayUrl}${path}`);
  await page.waitForSelector('[data-testid="shell"]');
  return page;
}

describe('the shell renders every route through the gateway', () => {
  it.each(ROUTES)('$path', async ({ path, marker, shot }) => {
    const page = await visit(path);
    await page.waitForSelector(marker, { timeout: 15_000 });
    expect(await page.locator('[data-testid="remote-fallback"]').count()).toBe(0);
    await page.screenshot({ path: screenshotPath(shot), fullPage: true });
    await page.close();
  });

  it("titles the 404 page '404 Page Not Found'", async () => {
    const page = await visit('/definitely-not-a-route');
    await page.waitForSelector('[data-page="not-found"]');
    expect(await page.title()).toBe('404 Page Not Found');
    await expect(page.getByRole('heading', { name: '404 Page Not Found' }).count()).resolves.toBe(1);
    await page.close();
  });

  it('links every page to the terms in the footer', async () => {
    const page = await visit('/');
    await page.getByRole('link', { name: 'Terms of Use' }).click();
    await page.waitForSelector('[data-page="terms"]');
    expect(new URL(page.url()).pathname).toBe('/terms');
    await page.close();
  });
});

describe('a remote that is down', () => {
  afterAll(() => controlComponent('vote', 'start'));

  it('shows a friendly fallback in its area while every other route keeps working', async () => {
    await controlComponent('vote', 'stop');

    const voting = await visit('/vote/AAAAAAAAAAAAAAAA');
    await voting.waitForSelector('[data-remote-fallback="vote"]', { timeout: 15_000 });
    await voting.screenshot({ path: screenshotPath('remote-down-vote-fallback'), fullPage: true });

    const landing = await visit('/');
    await landing.waitForSelector('[data-remote="create"]');
    const results = await visit('/results/AAAAAAAAAAAAAAAA');
    await results.waitForSelector('[data-remote="results"]');

    // Back up: the same page recovers through its retry button, without a reload.
    await controlComponent('vote', 'start');
    await voting.getByRole('button', { name: 'Try again' }).click();
    await voting.waitForSelector('[data-remote="vote"]', { timeout: 15_000 });
    await Promise.all([voting.close(), landing.close(), results.close()]);
  });
});
