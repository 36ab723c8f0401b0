import { randomBytes } from 'node:crypto';
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

export interface SlowPhoneLoad {
  /** Ms from navigation start: the question on screen (the first paint's or the screen's heading). */
  questionMs: number;
  /**
   * Ms from navigation start: a Vote button on screen, enabled, and taking a tap: the first paint's once start.js
   * has made it keep one (the screen sends that vote once it has arrived), or the screen's with React's click handler.
   */
  voteButtonMs: number;
  /** Ms from navigation start: the first logo image loaded (of the first paint or the screen). */
  firstLogoMs: number;
  /** Ms from navigation start: the bench's tap on that button, once the question, the first logo and it were all seen. */
  tapMs: number;
  /** Ms from navigation start: the screen's button reads 'Voted!' (the votes service has answered that vote). */
  votedMs: number;
}

/** What the page functions below use of the browser (this program is not compiled against the DOM). */
interface PageGlobals {
  __slowPhone: SlowPhoneLoad;
}

/**
 * Installed before the page's own scripts: at every frame, notes when the question, the first logo and a usable
 * Vote button first show, and when the screen's button reads 'Voted!'. "Usable": on screen, not aria-disabled,
 * and taking a tap: the first paint's button (`data-first-paint-vote`), which only start.js enables, as it
 * attaches the handler that keeps the tap; or the screen's, with React's props (its click handler) attached.
 * A string, as the bench's other init scripts: tsx would wrap a function's inner functions in a helper the page
 * does not have.
 */
const watchFirstLoad = (question: string, fingerprint: string) => `
  // A new voter each run: the same headless browser on the same machine would otherwise be one voter.
  if (!localStorage.getItem('logoVotingFingerprint')) localStorage.setItem('logoVotingFingerprint', ${JSON.stringify(fingerprint)});
  const seen = { questionMs: -1, voteButtonMs: -1, firstLogoMs: -1, tapMs: -1, votedMs: -1 };
  document.addEventListener('click', () => { if (seen.tapMs < 0) seen.tapMs = performance.now(); }, true);
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
    const firstPaintButton = document.querySelector('button[data-first-paint-vote]');
    if (seen.voteButtonMs < 0 && firstPaintButton && onScreen(firstPaintButton) && !firstPaintButton.hasAttribute('aria-disabled')) {
      seen.voteButtonMs = now;
    }
    const button = document.querySelector('[data-testid="vote-button"]');
    if (seen.voteButtonMs < 0 && button && onScreen(button) && button.getAttribute('aria-disabled') !== 'true') {
      const props = Object.entries(button).find(([key]) => key.startsWith('__reactProps$'));
      if (props && typeof props[1].onClick === 'function') seen.voteButtonMs = now;
    }
    if (seen.votedMs < 0 && button && button.textContent.trim() === 'Voted!') seen.votedMs = now;
    if (Object.values(seen).some((ms) => ms < 0)) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
`;

const firstLoadSeen = () => (globalThis as unknown as PageGlobals).__slowPhone;
const loadSeen = () => {
  const seen = (globalThis as unknown as PageGlobals).__slowPhone;
  return seen.questionMs >= 0 && seen.voteButtonMs >= 0 && seen.firstLogoMs >= 0;
};
const votedSeen = () => (globalThis as unknown as PageGlobals).__slowPhone.votedMs >= 0;

/**
 * Loads the voting page `url` once, cold (new context, no cache), as SLOW_PHONE, until its question, first logo and
 * usable Vote button are all seen, then taps the button (a new voter each time, with a fingerprint of its own) and
 * waits for 'Voted!'.
 */
export async function measureSlowPhone(browser: Browser, url: string, question: string): Promise<SlowPhoneLoad> {
  const { context, page } = await coldMobilePage(browser, SLOW_PHONE);
  try {
    await page.addInitScript(watchFirstLoad(question, randomBytes(8).toString('hex')));
    await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
    await page.waitForFunction(loadSeen, undefined, { timeout: 120_000, polling: 'raf' });
    const usable = page.locator(
      'button[data-first-paint-vote]:not([aria-disabled]), [data-testid="vote-button"]:not([aria-disabled="true"])',
    );
    await usable.first().tap({ timeout: 10_000 });
    await page.waitForFunction(votedSeen, undefined, { timeout: 120_000, polling: 100 });
    return await page.evaluate(firstLoadSeen);
  } finally {
    await context.close();
  }
}
