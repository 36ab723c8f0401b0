import type { Browser } from 'playwright-core';
import { coldMobilePage, type ThrottledNetwork } from './page-load';

/**
 * A phone on a slow network: Lighthouse's mobile device and CPU slowdown (4x) with DevTools' request-level
 * throttling at 400 ms latency and 500 kbit/s each way.
 */
export const SLOW_PHONE: ThrottledNetwork & { name: string } = {
  name: 'DevTools throttling at 400 ms request latency, 500 kbit/s down and up, 4x CPU slowdown, 412×823 viewport at 1.75x',
  latencyMs: 400,
  downloadKbps: 500,
  uploadKbps: 500,
};

/** Within this time of navigation the voting page shows its question and a Vote button that takes a click. */
export const SLOW_PHONE_BUDGET_MS = 3000;

export interface SlowPhoneLoad {
  /** Ms from navigation start: the question on screen (the first paint's or the screen's heading). */
  questionMs: number;
  /** Ms from navigation start: the Vote button on screen, enabled, with React's click handler attached. */
  voteButtonMs: number;
  /** Ms from navigation start: the first logo image loaded (of the first paint or the screen). */
  firstLogoMs: number;
}

/** What the page functions below use of the browser (this program is not compiled against the DOM). */
interface PageGlobals {
  __slowPhone: SlowPhoneLoad;
}

/**
 * Installed before the page's own scripts: at every frame, notes when the question, the first logo and a usable
 * Vote button first show. "Usable": on screen, not aria-disabled, and with React's props (its click handler)
 * attached, so a tap does vote. A string, as the bench's other init scripts: tsx would wrap a function's inner
 * functions in a helper the page does not have.
 */
const watchFirstLoad = (question: string) => `
  const seen = { questionMs: -1, voteButtonMs: -1, firstLogoMs: -1 };
  window.__slowPhone = seen;
  const question = ${JSON.stringify(question)};
  const onScreen = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && box.top < window.innerHeight;
  };
  const check = () => {
    const now = performance.now();
    if (seen.questionMs < 0 && Array.from(document.querySelectorAll('h1')).some((h) => h.textContent.trim() === question && onScreen(h))) {
      seen.questionMs = now;
    }
    if (seen.firstLogoMs < 0 && Array.from(document.querySelectorAll('img[src^="/api/logos/"]')).some((img) => img.complete && img.naturalWidth > 0 && onScreen(img))) {
      seen.firstLogoMs = now;
    }
    const button = document.querySelector('[data-testid="vote-button"]');
    if (seen.voteButtonMs < 0 && button && onScreen(button) && button.getAttribute('aria-disabled') !== 'true') {
      const props = Object.entries(button).find(([key]) => key.startsWith('__reactProps$'));
      if (props && typeof props[1].onClick === 'function') seen.voteButtonMs = now;
    }
    if (seen.questionMs < 0 || seen.voteButtonMs < 0 || seen.firstLogoMs < 0) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
`;

const firstLoadSeen = () => (globalThis as unknown as PageGlobals).__slowPhone;
const allSeen = () => {
  const seen = (globalThis as unknown as PageGlobals).__slowPhone;
  return seen.questionMs >= 0 && seen.voteButtonMs >= 0 && seen.firstLogoMs >= 0;
};

/** Loads the voting page `url` once, cold (new context, no cache), as SLOW_PHONE, until its Vote button is usable. */
export async function measureSlowPhone(browser: Browser, url: string, question: string): Promise<SlowPhoneLoad> {
  const { context, page } = await coldMobilePage(browser, SLOW_PHONE);
  try {
    await page.addInitScript(watchFirstLoad(question));
    await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
    await page.waitForFunction(allSeen, undefined, { timeout: 120_000, polling: 100 });
    return await page.evaluate(firstLoadSeen);
  } finally {
    await context.close();
  }
}
