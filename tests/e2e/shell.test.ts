import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { screenshotPath } from '../support/browser';
import { testStack } from '../support/stack-env';
import {
  expectAccessible,
  expectNoHorizontalOverflow,
  expectToast,
  fixture,
  oversizeLogo,
  recordAnalytics,
  shoot,
  toast,
  VIEWPORTS,
  waitForEvent,
  useBrowser,
  visit,
  type ViewportName,
} from '../support/web';

const { gatewayUrl } = testStack();

const browser = useBrowser();

const open = async (path: string, viewport: ViewportName = 'desktop'): Promise<Page> => visit(await browser.newPage(viewport), path);

const picker = (page: Page) => page.locator('[data-testid="upload-area"] input[type="file"]');

describe('routing and analytics', () => {
  it('reports a page view on every route change, client-side navigation included', async () => {
    const page = await browser.newPage();
    const events = recordAnalytics(page);
    await page.goto(`${gatewayUrl}/`);
    await page.waitForSelector('[data-remote="create"]');
    await page.getByRole('link', { name: 'Terms of Use' }).click();
    await page.waitForSelector('[data-page="terms"]');
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForSelector('[data-remote="create"]');
    await page.goBack();
    await page.waitForSelector('[data-page="terms"]');

    await waitForEvent(events, { name: 'page_view', path: '/terms' });
    const deadline = Date.now() + 10_000;
    while (events.filter((event) => event.name === 'page_view').length < 4 && Date.now() < deadline) await page.waitForTimeout(200);
    expect(events.filter((event) => event.name === 'page_view').map((event) => event.path)).toEqual(['/', '/terms', '/', '/terms']);
    for (const event of events) expect(Number.isNaN(Date.parse(event.occurredAt))).toBe(false);
  });

  it('sends what is still queued with sendBeacon when the page is hidden', async () => {
    const page = await browser.newPage();
    const beacons: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/analytics/events')) beacons.push(request.resourceType());
    });
    await page.goto(`${gatewayUrl}/terms`);
    await page.waitForSelector('[data-page="terms"]');
    // Hide the page before the batching timer fires: the page view must leave at once.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const deadline = Date.now() + 5000;
    while (beacons.length === 0 && Date.now() < deadline) await page.waitForTimeout(50);
    expect(beacons[0]).toBe('ping');
  });

  it.each(['phone', 'desktop'] as const)("shows the 404 page on a %s, titled '404 Page Not Found'", async (viewport) => {
    const page = await open('/no/such/page', viewport);
    await page.waitForSelector('[data-page="not-found"]');
    expect(await page.title()).toBe('404 Page Not Found');
    await expect(page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).count()).resolves.toBe(1);
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    await shoot(page, `shell-not-found-${viewport}`);
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForSelector('[data-remote="create"]');
  });

  it.each(['phone', 'desktop'] as const)('shows the footer with a copyright line and the terms link on a %s', async (viewport) => {
    const page = await open('/terms', viewport);
    const footer = page.getByRole('contentinfo');
    await expect(footer.innerText()).resolves.toMatch(/© \d{4} LogoVote\. All rights reserved\./);
    await expect(footer.getByRole('link', { name: 'Terms of Use' }).getAttribute('href')).resolves.toBe('/terms');
  });
});

describe('toasts', () => {
  it('show one at a time, default and destructive, 5000 ms, at most 420 px wide from medium screens up', async () => {
    const page = await open('/');
    await page.waitForSelector('[data-remote="create"]');
    await picker(page).setInputFiles([fixture('logo-ring.png')]);
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    const shown = await expectToast(page, 'Congratulations!');
    await expect(shown.getAttribute('data-variant')).resolves.toBe('default');
    const box = await page.locator('[data-testid="toast"]').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(420);

    // Two problems at once (one file too large, two too many): only the newer toast is shown.
    await picker(page).setInputFiles([
      oversizeLogo(),
      ...['logo-triangle.jpg', 'logo-diamond.webp', 'logo-wave.svg', 'logo-square.png'].map(fixture),
    ]);
    const tooMany = await expectToast(page, 'Too many files');
    await expect(toast(page).count()).resolves.toBe(1);
    await expect(tooMany.getAttribute('data-variant')).resolves.toBe('destructive');
    await shoot(page, 'shell-toast-destructive-desktop');

    // Still there after 3 s, gone after 5 s (with a margin for a busy machine).
    await page.waitForTimeout(3000);
    await expect(toast(page).count()).resolves.toBe(1);
    await toast(page).waitFor({ state: 'detached', timeout: 6000 });
  });

  it('span the width of a phone', async () => {
    const page = await open('/', 'phone');
    await page.waitForSelector('[data-remote="create"]');
    await picker(page).setInputFiles([fixture('logo-ring.png')]);
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    await expectToast(page, 'Congratulations!');
    const box = await toast(page).boundingBox();
    expect(box!.width).toBeGreaterThan(VIEWPORTS.phone.width - 40);
    await shoot(page, 'shell-toast-phone');
  });

  async function swipe(page: Page, distance: number): Promise<void> {
    const box = (await toast(page).boundingBox())!;
    const y = box.y + box.height / 2;
    const x = box.x + 40;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let step = 1; step <= 10; step += 1) await page.mouse.move(x + (distance * step) / 10, y);
    await page.mouse.up();
  }

  it('are dismissed by a swipe to the right past 50 px, not by a shorter one', async () => {
    const page = await open('/');
    await page.waitForSelector('[data-remote="create"]');
    await picker(page).setInputFiles([fixture('logo-ring.png')]);
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    await expectToast(page, 'Congratulations!');
    await swipe(page, 30);
    await page.waitForTimeout(300);
    await expect(toast(page).getAttribute('data-state')).resolves.toBe('open');
    await swipe(page, 120);
    await toast(page).waitFor({ state: 'detached', timeout: 3000 });
  });

  it('are reached with F8', async () => {
    const page = await open('/');
    await page.waitForSelector('[data-remote="create"]');
    await picker(page).setInputFiles([fixture('logo-ring.png')]);
    await page.getByRole('button', { name: 'Get Votes!' }).click();
    await expectToast(page, 'Congratulations!');
    await page.keyboard.press('F8');
    const focused = await page.evaluate(() => document.activeElement?.closest('[role="region"]')?.getAttribute('aria-label') ?? null);
    expect(focused).toContain('F8');
  });
});

describe('tooltips', () => {
  it('open after the 700 ms delay, and at once when moving to another within 300 ms', async () => {
    const page = await open('/');
    await page.waitForSelector('[data-remote="create"]');
    await picker(page).setInputFiles([fixture('logo-ring.png'), fixture('logo-wave.svg')]);
    const first = page.getByRole('button', { name: 'Remove logo-ring.png' });
    const second = page.getByRole('button', { name: 'Remove logo-wave.svg' });
    await first.hover();
    await page.waitForTimeout(300);
    await expect(first.getAttribute('data-state')).resolves.toBe('closed');
    await page.getByRole('tooltip', { name: 'Remove logo' }).waitFor({ timeout: 3000 });
    await expect(first.getAttribute('data-state')).resolves.toBe('delayed-open');
    await shoot(page, 'shell-tooltip-desktop');
    // Real pointers send many moves; Radix ignores the first one that leaves the open tooltip's grace area.
    const target = (await second.boundingBox())!;
    await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 5 });
    await page.mouse.move(target.x + target.width / 2 + 1, target.y + target.height / 2);
    await page.waitForFunction(
      (name) => document.querySelector(`[aria-label="${name}"]`)?.getAttribute('data-state') !== 'closed',
      'Remove logo-wave.svg',
    );
    await expect(second.getAttribute('data-state')).resolves.toBe('instant-open');
  });
});

describe('the terms page', () => {
  const TERMS = [
    'You can upload up to 4 logos per poll.',
    'Accepted formats are JPEG, PNG, WebP and SVG.',
    'Each logo may be at most 2MB.',
    'Voting sessions and their data are deleted after 30 days of inactivity.',
    'E-mail addresses and browser fingerprints are kept only for the life of the session.',
    'Images from free polls may be kept beyond 30 days to train AI models. You can opt out by contacting support.',
    'Rate limiting applies to the API.',
    'One vote per participant per session, based on IP address and browser fingerprint.',
    'Repeated violations may lead to restrictions.',
    'Free: you consent to your logos, feedback and discussions being used as AI training data.',
    'Paid: $0.99 per survey; your data is kept private while the survey exists.',
    'Bulk: $4.99 for 20 surveys.',
  ];
  const MODERATION = [
    'nudity',
    'violence',
    'hateful content',
    'offensive symbols',
    'gambling, drugs or weapons',
    'human faces',
    'copyright infringement',
    'misleading or impersonating logos',
  ];

  it.each(['phone', 'desktop'] as const)('shows every term, the last-updated date and Back to Home on a %s', async (viewport) => {
    const page = await open('/terms', viewport);
    await page.waitForSelector('[data-page="terms"]');
    expect(await page.title()).toBe('Terms of Use · LogoVote');
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of Use' }).count()).resolves.toBe(1);
    const text = await page.locator('[data-page="terms"]').innerText();
    expect(text).toContain('Last updated: 24 May 2025');
    for (const term of [...TERMS, ...MODERATION]) expect(text).toContain(term);
    await expectAccessible(page);
    await expectNoHorizontalOverflow(page);
    await shoot(page, `shell-terms-${viewport}`);
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await page.waitForSelector('[data-remote="create"]');
    expect(new URL(page.url()).pathname).toBe('/');
  });
});

describe('keyboard use', () => {
  it('reaches the terms link, the file picker, the question and Get Votes! with Tab', async () => {
    const page = await open('/');
    await page.waitForSelector('[data-remote="create"]');
    const reached: string[] = [];
    // The form's options come between the file picker and the question: Tab on until the footer's link.
    for (let i = 0; i < 20 && !reached.includes('a:Terms of Use'); i += 1) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          if (!el) return '';
          if (el instanceof HTMLInputElement) return `input:${el.type}`;
          return `${el.tagName.toLowerCase()}:${el.textContent?.trim() ?? ''}`;
        }),
      );
    }
    expect(reached).toEqual(expect.arrayContaining(['input:file', 'textarea:', 'button:Get Votes!', 'a:Terms of Use']));
  });
});

describe('first load', () => {
  /** Gzip-compressed bytes of the code, styles and document a first visit downloads. */
  async function firstLoad(path: string, ready: string): Promise<{ totalGzip: number; files: Record<string, number> }> {
    const page = await browser.newPage('phone');
    const measured: Promise<void>[] = [];
    const files: Record<string, number> = {};
    page.on('response', (response) => {
      if (!['script', 'stylesheet', 'document'].includes(response.request().resourceType())) return;
      measured.push(
        response.body().then((body) => {
          files[new URL(response.url()).pathname] = gzipSync(body).length;
        }),
      );
    });
    await page.goto(`${gatewayUrl}${path}`);
    await page.waitForSelector(ready, { timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    await Promise.all(measured);
    return { totalGzip: Object.values(files).reduce((sum, size) => sum + size, 0), files };
  }

  it('records what the voting page and the landing page download first (test-results/first-load.json)', async () => {
    const report = {
      votingPage: await firstLoad('/vote/AAAAAAAAAAAAAAAA', '[data-remote="vote"]'),
      landingPage: await firstLoad('/', '[data-remote="create"]'),
    };
    writeFileSync(join(dirname(screenshotPath('first-load')), '..', 'first-load.json'), `${JSON.stringify(report, null, 2)}\n`);
    // The shell loads none of its own pages nor the creation dialog up front.
    const shellFiles = Object.keys(report.votingPage.files).join(' ');
    expect(shellFiles).not.toMatch(/page-terms|page-test-|creation-dialog/);
    expect(report.votingPage.totalGzip).toBeGreaterThan(0);
  });
});
