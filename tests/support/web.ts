/**
 * Helpers for the front-end browser tests (create flow, shell, test pages): viewports, the logo
 * fixtures in tests/fixtures, toasts, analytics batches, accessibility checks and screenshots.
 */
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { AnalyticsBatch, AnalyticsEvent } from '@logovote/contracts';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { launchBrowser, screenshotPath } from './browser';
import { testStack } from './stack-env';

export const VIEWPORTS = {
  phone: { width: 375, height: 812 },
  desktop: { width: 1280, height: 800 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/**
 * One Chromium per test file: launched before its tests, closed after them with every context
 * opened through it. Call at the top level of the file.
 */
export function useBrowser() {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser.close();
  });
  return {
    /** A fresh page (own context: own storage and cookies) at a viewport. */
    async newPage(viewport: ViewportName = 'desktop', options: BrowserContextOptions = {}): Promise<Page> {
      const context = await browser.newContext({ viewport: VIEWPORTS[viewport], ...options });
      contexts.push(context);
      return context.newPage();
    },
  };
}

/** Loads a path of the gateway and waits for `marker` (the shell by default). */
export async function visit(page: Page, path: string, marker = '[data-testid="shell"]'): Promise<Page> {
  await page.goto(`${testStack().gatewayUrl}${path}`);
  await page.waitForSelector(marker, { timeout: 15_000 });
  return page;
}

export type FilePayload = { name: string; mimeType: string; buffer: Buffer };

const MIME_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** A file of tests/fixtures, as Playwright takes it for file inputs. */
export function fixture(name: string): FilePayload {
  return {
    name,
    mimeType: MIME_TYPES[extname(name)] ?? 'application/octet-stream',
    buffer: readFileSync(join(__dirname, '..', 'fixtures', name)),
  };
}

/** Four real logos of four types: PNG, JPEG, WebP and SVG. */
export const FOUR_LOGOS = ['logo-ring.png', 'logo-triangle.jpg', 'logo-diamond.webp', 'logo-wave.svg'] as const;

/** A PNG of 2 MB and one byte: refused by the browser before any upload. */
export function oversizeLogo(): FilePayload {
  const buffer = Buffer.alloc(2 * 1024 * 1024 + 1);
  readFileSync(join(__dirname, '..', 'fixtures', 'logo-ring.png')).copy(buffer);
  return { name: 'huge-logo.png', mimeType: 'image/png', buffer };
}

/** Chromium for pages served from a non-loopback host name (an insecure context: no crypto.subtle). */
export function launchBrowserWithHost(host: string): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      `--host-resolver-rules=MAP ${host} 127.0.0.1`,
    ],
  });
}

/** The toast showing now (the Toaster shows at most one). */
export function toast(page: Page): Locator {
  return page.locator('[data-testid="toast"]');
}

/**
 * Waits for the toast with this title and description. Both are part of the match: an earlier toast with the
 * same title, still shown on a slow machine, is not taken for the one the last action raised.
 */
export async function expectToast(page: Page, title: string, description?: string): Promise<Locator> {
  const titled = toast(page).filter({ hasText: title });
  const shown = description === undefined ? titled : titled.filter({ hasText: description });
  await shown.waitFor({ state: 'visible', timeout: 10_000 });
  return shown;
}

/** Closes the toast showing now, if any, and waits until it is gone. */
export async function dismissToast(page: Page): Promise<void> {
  if ((await toast(page).count()) === 0) return;
  await toast(page).getByRole('button', { name: 'Close' }).click();
  await toast(page).waitFor({ state: 'detached' });
}

/**
 * Holds back the page's scripts (every `.js` but the paths `passes` lets through) until the returned function is
 * called: what the page's HTML alone paints, or with `/start.js` through, its first paint taking taps.
 */
export async function holdScripts(page: Page, passes: (path: string) => boolean = () => false): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\.js$/, async (route) => {
    if (!passes(new URL(route.request().url()).pathname)) await released;
    await route.continue();
  });
  return release;
}

/** Waits until the voting screen's main button reads `text` ('Vote', 'Submitting...', 'Voted!', 'Change Vote'). */
export async function expectVoteButton(page: Page, text: string): Promise<void> {
  await page.waitForFunction((expected) => document.querySelector('[data-testid="vote-button"]')?.textContent?.trim() === expected, text, {
    timeout: 15_000,
  });
}

/** Records every analytics event the page sends to the collector. */
export function recordAnalytics(page: Page): AnalyticsEvent[] {
  const events: AnalyticsEvent[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/api/analytics/events')) return;
    const body = request.postData();
    if (body) events.push(...(JSON.parse(body) as AnalyticsBatch).events);
  });
  return events;
}

/** Polls until `events` holds one matching `match` (the queue flushes on a short timer). */
export async function waitForEvent(events: AnalyticsEvent[], match: Partial<AnalyticsEvent>, timeoutMs = 10_000): Promise<AnalyticsEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = events.find((event) => Object.entries(match).every(([key, value]) => event[key as keyof AnalyticsEvent] === value));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no analytics event ${JSON.stringify(match)} in ${JSON.stringify(events)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] };

/** Runs axe-core on the page: no serious or critical violation may be found. */
export async function expectAccessible(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol, so the page's Content-Security-Policy (no inline script) does not block it.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    );
  expect(serious).toEqual([]);
}

/** No horizontal scrolling: the page fits the viewport's width. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

/**
 * Waits until `element` has the keyboard focus. Focus moves in a later task than the change that causes it (a closing
 * Radix dialog gives it back after its content is gone; screens move it in effects), so reading
 * document.activeElement at once races with that.
 */
export async function expectFocusOn(element: Locator): Promise<void> {
  const handle = await element.elementHandle();
  await element.page().waitForFunction((target) => target === document.activeElement, handle);
}

/** A full-page screenshot kept under test-results/screenshots/. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(name), fullPage: true });
}
