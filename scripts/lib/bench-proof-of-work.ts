/**
 * What the step-up proof of work costs (docs/api/votes-and-notify.md): a script's CPU per extra voter,
 * solving with Node's native PBKDF2 as tests/support/proof-of-work.ts does, and the voting page's solve
 * in Chromium on a slow phone's CPU. Each measurement is one real vote through the gateway by the sixth
 * (or later) new voter of an address.
 */
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import type { CreatedSession, ProofRequired } from '@logovote/contracts';
import { solveVoteChallenge } from '../../tests/support/proof-of-work';
import { call, targetOf, type Target } from '../../tests/hostile/support/http';
import { MOBILE_PROFILE } from './bench-page-load';

/** The free seats of an address (the votes service's default PROOF_OF_WORK_FROM_VOTER - 1). */
const FREE_VOTERS = 5;
const SCRIPT_SOLVES = 12;
const BROWSER_SOLVES = 5;
/** The entry @logovote/web-client's solver leaves (SOLVE_MEASURE). */
const SOLVE_MEASURE = 'logovote:proof-of-work';

export interface BrowserSolves {
  /** What the run emulated. */
  label: string;
  /** Web Workers the page solved with (navigator.hardwareConcurrency, at most 4). */
  workers: number;
  cpuSlowdown: number;
  /** The solve alone, from the page's performance entry. */
  solveMs: number[];
  /** From the click on 'Vote' to 'Voted!' (the 428, the solve and the vote again). */
  voteMs: number[];
}

export interface ProofOfWorkResults {
  /** CPU time (user + system, all threads) of the script per solved challenge. */
  scriptCpuMs: number[];
  browser: BrowserSolves[];
}

const fingerprint = () => randomBytes(8).toString('hex');

async function newPoll(target: Target, logo: Buffer): Promise<CreatedSession> {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const part = (index: number) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="logos"; filename="logo-${index}.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      logo,
      Buffer.from('\r\n'),
    ]);
  const body = Buffer.concat([part(0), part(1), Buffer.from(`--${boundary}--\r\n`)]);
  const answer = await call(target, {
    method: 'POST',
    path: '/api/sessions',
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  if (answer.status !== 201) throw new Error(`creating a poll: ${answer.status} ${answer.body}`);
  return JSON.parse(answer.body) as CreatedSession;
}

/** A vote by a new visitor from `target` (its own cookies and fingerprint): the answer, and how to send it again with a proof. */
async function voteAsNewVisitor(target: Target, poll: CreatedSession) {
  const session = await call(target, { method: 'GET', path: `/api/sessions/${poll.sessionId}` });
  const { csrfToken } = JSON.parse(session.body) as { csrfToken: string };
  const cookie = (session.headers['set-cookie'] ?? '').match(/lv_csrf=[^;,\s]+/)?.[0] ?? '';
  const id = fingerprint();
  const send = (proof?: string) =>
    call(target, {
      method: 'POST',
      path: `/api/sessions/${poll.sessionId}/vote`,
      headers: {
        'Content-Type': 'application/json',
        Cookie: cookie,
        'X-CSRF-Token': csrfToken,
        'X-Client-Fingerprint': id,
        ...(proof ? { 'X-Vote-Proof': proof } : {}),
      },
      body: JSON.stringify({ logoId: poll.logos[0]!.id }),
    });
  return { first: await send(), again: send };
}

/** A poll whose address `target` already holds the voters that need no proof. */
async function pollWithAHousehold(target: Target, logo: Buffer): Promise<CreatedSession> {
  const poll = await newPoll(target, logo);
  for (let i = 0; i < FREE_VOTERS; i++) {
    const { first } = await voteAsNewVisitor(target, poll);
    if (first.status !== 200) throw new Error(`a free voter was answered ${first.status}: ${first.body}`);
  }
  return poll;
}

async function measureScript(gateway: string, logo: Buffer): Promise<number[]> {
  const target = targetOf(gateway, '127.60.0.1');
  const poll = await pollWithAHousehold(target, logo);
  const cpuMs: number[] = [];
  for (let i = 0; i < SCRIPT_SOLVES; i++) {
    const { first, again } = await voteAsNewVisitor(target, poll);
    if (first.status !== 428) throw new Error(`expected a challenge, got ${first.status}: ${first.body}`);
    const { challenge } = JSON.parse(first.body) as ProofRequired;
    const before = process.cpuUsage();
    const proof = await solveVoteChallenge(challenge);
    const used = process.cpuUsage(before);
    cpuMs.push((used.user + used.system) / 1000);
    const counted = await again(proof);
    if (counted.status !== 200) throw new Error(`a solved vote was answered ${counted.status}: ${counted.body}`);
  }
  return cpuMs;
}

/** What the page functions below use of the browser (this program is not compiled against the DOM). */
interface PageGlobals {
  performance: { getEntriesByName(name: string): { duration: number }[] };
  document: { querySelector(selector: string): { textContent: string | null } | null };
}

async function measureBrowser(
  browser: Browser,
  gateway: string,
  logo: Buffer,
  run: { label: string; workers: number; cpuSlowdown: number },
): Promise<BrowserSolves> {
  const result: BrowserSolves = { ...run, solveMs: [], voteMs: [] };
  for (let i = 0; i < BROWSER_SOLVES; i++) {
    // Chromium reaches the gateway from 127.0.0.1: that address's household is filled first.
    const poll = await pollWithAHousehold(targetOf(gateway, '127.0.0.1'), logo);
    const context = await browser.newContext({
      viewport: MOBILE_PROFILE.viewport,
      deviceScaleFactor: MOBILE_PROFILE.deviceScaleFactor,
      userAgent: MOBILE_PROFILE.userAgent,
      isMobile: true,
      hasTouch: true,
    });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: run.cpuSlowdown });
      await cdp.send('Emulation.setHardwareConcurrencyOverride', { hardwareConcurrency: run.workers });
      await page.goto(`${gateway}/vote/${poll.sessionId}`);
      const button = page.getByTestId('vote-button');
      await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 60_000 });
      const clicked = performance.now();
      await button.click();
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.querySelector('[data-testid="vote-button"]')?.textContent?.trim() === 'Voted!',
        undefined,
        { timeout: 60_000, polling: 20 },
      );
      result.voteMs.push(performance.now() - clicked);
      const solve = await page.evaluate(
        (name) => (globalThis as unknown as PageGlobals).performance.getEntriesByName(name)[0]?.duration ?? Number.NaN,
        SOLVE_MEASURE,
      );
      result.solveMs.push(solve);
    } finally {
      await context.close();
    }
  }
  return result;
}

/**
 * Chromium's CPU throttling (DevTools protocol) slows the page's threads, but WebCrypto's PBKDF2 runs on
 * Chromium's own worker pool, which it does not slow: the throttled run shows what the page adds, and the
 * runs without throttling, times four, are what a phone four times slower pays.
 */
export async function measureProofOfWork(options: { gateway: string; browser: Browser; logo: Buffer }): Promise<ProofOfWorkResults> {
  const scriptCpuMs = await measureScript(options.gateway, options.logo);
  const browser: BrowserSolves[] = [];
  for (const run of [
    { label: '4x CPU slowdown (DevTools), 2 workers', workers: 2, cpuSlowdown: MOBILE_PROFILE.cpuSlowdown },
    { label: 'no slowdown, 2 workers', workers: 2, cpuSlowdown: 1 },
    { label: 'no slowdown, 1 worker', workers: 1, cpuSlowdown: 1 },
  ]) {
    browser.push(await measureBrowser(options.browser, options.gateway, options.logo, run));
  }
  return { scriptCpuMs, browser };
}
