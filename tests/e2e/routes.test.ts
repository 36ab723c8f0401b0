import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { launchBrowser, screenshotPath } from '../support/browser';
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

describe('a remote that fails for a moment', () => {
  const VOTE_PAGE = '/vote/AAAAAAAAAAAAAAAA';
  const VOTE_MANIFEST = '**/remotes/vote/mf-manifest.json';

  /**
   * The landing page, loaded. Going to the voting page from there, only its screen loads the vote remote
   * (on a first visit the entry module starts a load too, and a second load would hide a missing retry).
   */
  async function landingPage(): Promise<Page> {
    const page = await visit('/');
    await page.waitForSelector('[data-remote="create"]', { timeout: 15_000 });
    return page;
  }

  /** Client-side navigation, as the shell's links do. */
  const navigate = (page: Page, path: string) =>
    page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);

  /** Fails the first request for `file` of the vote remote with `fail`; the count of requests for it. */
  async function failFirstRequest(page: Page, file: string, fail: (route: Route) => Promise<void>): Promise<() => number> {
    let requests = 0;
    await page.route(`**/remotes/vote/${file}`, (route) => {
      requests += 1;
      return requests === 1 ? fail(route) : route.continue();
    });
    return () => requests;
  }

  // The screen appears without a click on 'Try again': a fallback, once shown, stays until then.
  it.each([
    { file: 'mf-manifest.json', fail: (route: Route) => route.fulfill({ status: 503, body: 'Service temporarily unavailable.' }) },
    { file: 'remoteEntry.js', fail: (route: Route) => route.abort('connectionreset') },
  ])('loads its screen when $file fails once, without showing the fallback', async ({ file, fail }) => {
    const page = await landingPage();
    const requests = await failFirstRequest(page, file, fail);
    await navigate(page, VOTE_PAGE);
    await page.waitForSelector('[data-remote="vote"]', { timeout: 15_000 });
    expect(await page.locator('[data-testid="remote-fallback"]').count()).toBe(0);
    expect(requests()).toBe(2);
    await page.close();
  });

  it("still shows the fallback within seconds when the failure lasts, and 'Try again' loads afresh once it is over", async () => {
    const page = await landingPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.route(VOTE_MANIFEST, (route) => route.fulfill({ status: 503 }));
    await navigate(page, VOTE_PAGE);
    // The retries add about a second: a remote that is down must not keep the visitor waiting.
    await page.waitForSelector('[data-remote-fallback="vote"]', { timeout: 5_000 });
    expect(errors.join('\n')).toContain('RemoteLoadError: Could not load logovote_vote/VotePage');

    await page.unroute(VOTE_MANIFEST);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForSelector('[data-remote="vote"]', { timeout: 15_000 });
    await page.close();
  });
});
