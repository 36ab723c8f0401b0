import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';

/**
 * Chrome DevTools' "Fast 3G" preset, which is Lighthouse's mobile network profile (150 ms RTT,
 * 1.6 Mbps) as request-level throttling: 562.5 ms added to every request, 1.44 Mbit/s down
 * (1474.56 kbit/s), 675 kbit/s up. With Lighthouse's mobile CPU slowdown (4x).
 */
export const MOBILE_PROFILE = {
  name: 'Chrome DevTools "Fast 3G" (562.5 ms request latency, 1474.56 kbit/s down, 675 kbit/s up), 4x CPU slowdown, 412×823 viewport at 1.75x',
  latencyMs: 562.5,
  downloadKbps: 1474.56,
  uploadKbps: 675,
  cpuSlowdown: 4,
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36',
} as const;

export interface LoadedResource {
  url: string;
  type: string;
  status: number;
  /** Bytes on the wire: headers and (compressed) body. */
  transferBytes: number;
  /** The (compressed) body alone. */
  bodyBytes: number;
  contentEncoding: string;
  /** Milliseconds from navigation start. */
  startMs: number;
  endMs: number;
}

export interface PageLoad {
  lcpMs: number;
  lcpElement: string;
  /** When the first logo image finished loading, ms from navigation start. */
  firstLogoMs: number;
  /** JavaScript fetched before the first logo image finished loading. */
  jsBeforeFirstLogo: { transferBytes: number; bodyBytes: number; files: number };
  resources: LoadedResource[];
  acceptEncoding: string;
}

type PendingRequest = Omit<LoadedResource, 'transferBytes' | 'bodyBytes' | 'endMs'> & { headerBytes: number };

/** What the page functions below use of the browser (this program is not compiled against the DOM). */
interface PageGlobals {
  document: { querySelectorAll(selector: string): ArrayLike<{ src: string; complete: boolean; naturalWidth: number }> };
  __lcp: { ms: number; element: string };
}

/** Run in the page (as functions: the page's Content-Security-Policy forbids evaluating strings). */
function allLogosLoaded(): boolean {
  const { document } = globalThis as unknown as PageGlobals;
  const logos = Array.from(document.querySelectorAll('img')).filter((img) => img.src.includes('/api/logos/'));
  return logos.length > 0 && logos.every((img) => img.complete && img.naturalWidth > 0);
}
const largestContentfulPaint = () => (globalThis as unknown as PageGlobals).__lcp;

const LCP_OBSERVER = `
  window.__lcp = { ms: 0, element: '' };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const el = entry.element;
      window.__lcp = { ms: entry.startTime, element: el ? el.tagName.toLowerCase() + (el.getAttribute('src') ? ' ' + el.getAttribute('src') : '') : entry.url || '' };
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
`;

/** A network as DevTools throttles it: latency added to every request, throughput each way. */
export interface ThrottledNetwork {
  latencyMs: number;
  downloadKbps: number;
  uploadKbps: number;
}

/** A new context (so no cache) as MOBILE_PROFILE's phone. */
export const mobileContext = (browser: Browser): Promise<BrowserContext> =>
  browser.newContext({
    viewport: MOBILE_PROFILE.viewport,
    deviceScaleFactor: MOBILE_PROFILE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    userAgent: MOBILE_PROFILE.userAgent,
  });

/**
 * A new page in a mobileContext, its CPU slowed as MOBILE_PROFILE's and its network throttled as `network` says (not
 * at all with null). The caller closes the context.
 */
export async function coldMobilePage(
  browser: Browser,
  network: ThrottledNetwork | null,
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  const context = await mobileContext(browser);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (network) {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: network.latencyMs,
      downloadThroughput: (network.downloadKbps * 1000) / 8,
      uploadThroughput: (network.uploadKbps * 1000) / 8,
    });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE_PROFILE.cpuSlowdown });
  return { context, page, cdp };
}

/**
 * Loads `url` once, cold (new context, no cache), in headless Chromium under MOBILE_PROFILE (or its
 * CPU slowdown alone, with `network: false`), and waits until every logo image (img with src under
 * /api/logos/) has loaded and the page is quiet.
 */
export async function measurePageLoad(browser: Browser, url: string, options: { network: boolean } = { network: true }): Promise<PageLoad> {
  const { context, page, cdp } = await coldMobilePage(browser, options.network ? MOBILE_PROFILE : null);
  try {
    await page.addInitScript(LCP_OBSERVER);

    let originSeconds: number | undefined;
    const ms = (timestamp: number) => (timestamp - (originSeconds ?? timestamp)) * 1000;
    const pending = new Map<string, PendingRequest>();
    const resources: LoadedResource[] = [];
    cdp.on('Network.requestWillBeSent', (event) => {
      originSeconds ??= event.timestamp;
      pending.set(event.requestId, {
        url: event.request.url,
        type: event.type ?? 'Other',
        startMs: ms(event.timestamp),
        status: 0,
        headerBytes: 0,
        contentEncoding: '',
      });
    });
    // The headers Chromium really sent (compression it accepts included) come in a separate event.
    let acceptEncoding = '';
    cdp.on('Network.requestWillBeSentExtraInfo', (event) => {
      const header = Object.entries(event.headers).find(([name]) => name.toLowerCase() === 'accept-encoding');
      if (header && !acceptEncoding) acceptEncoding = String(header[1]);
    });
    cdp.on('Network.responseReceived', (event) => {
      const request = pending.get(event.requestId);
      if (!request) return;
      request.status = event.response.status;
      request.type = event.type;
      request.headerBytes = event.response.encodedDataLength;
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), value]));
      request.contentEncoding = headers['content-encoding'] ?? '';
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = pending.get(event.requestId);
      if (!request) return;
      const { headerBytes, ...resource } = request;
      resources.push({
        ...resource,
        transferBytes: event.encodedDataLength,
        bodyBytes: event.encodedDataLength - headerBytes,
        endMs: ms(event.timestamp),
      });
    });

    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForFunction(allLogosLoaded, undefined, { timeout: 120_000, polling: 100 });
    // LCP is reported after the frame that paints the element: give it time to arrive.
    await page.waitForTimeout(1500);
    const lcp = await page.evaluate(largestContentfulPaint);

    const logoLoads = resources.filter((resource) => new URL(resource.url).pathname.startsWith('/api/logos/'));
    const firstLogoMs = Math.min(...logoLoads.map((resource) => resource.endMs));
    const scripts = resources.filter((resource) => resource.type === 'Script' && resource.endMs <= firstLogoMs);
    return {
      lcpMs: lcp.ms,
      lcpElement: lcp.element,
      firstLogoMs,
      jsBeforeFirstLogo: {
        transferBytes: scripts.reduce((sum, resource) => sum + resource.transferBytes, 0),
        bodyBytes: scripts.reduce((sum, resource) => sum + resource.bodyBytes, 0),
        files: scripts.length,
      },
      resources: resources.sort((a, b) => a.startMs - b.startMs),
      acceptEncoding,
    };
  } finally {
    await context.close();
  }
}
