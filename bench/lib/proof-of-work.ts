/**
 * What the rising proof of work costs (docs/api/votes-and-notify.md), with the votes service's default
 * configuration, in a poll of either kind (any poll, and one created for a shared network):
 * - the wait of the 200th voter of one address on a phone: many single solves by the voting page of
 *   Chromium, each of a challenge of that voter's level, signed by the bench with the stack's key, so the
 *   page's real solver solves it and the votes service counts the vote;
 * - a script's CPU for 200 voters of one address: single solves with Node's native PBKDF2 (as
 *   tests/support/proof-of-work.ts solves) give the CPU per attempt, and each voter's level gives its
 *   expected attempts.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, Route } from 'playwright-core';
import type { ProofRequired, VoteChallenge } from '@logovote/contracts';
import { addressPolicies } from '../../services/votes/src/app';
import { levelOfSeat, type AddressPolicy } from '../../services/votes/src/use-cases/cast-vote';
import { loadConfig } from '../../services/votes/src/config';
import { PROOF_REQUIRED, attemptsAt, proofOfWork } from '../../services/votes/src/proof-of-work';
import { solveVoteChallenge } from '../../tests/support/proof-of-work';
import { call, targetOf } from '../../tests/hostile/support/http';
import { MOBILE_PROFILE, mobileContext } from './page-load';
import { createPolls, type BenchPoll } from './polls';

/** The voters of one address whose costs are measured: an office of 200. */
const OFFICE_VOTERS = 200;
/** Single solves by the page per kind of poll, at the 200th voter's level. */
const PAGE_SOLVES = 15;
/** Single solves by a script per level. */
const SCRIPT_SOLVES_PER_LEVEL = 3;
/** Web Workers the page solves with: this machine's cores (the page uses up to four). */
const PAGE_WORKERS = 2;
/** The entry @logovote/web-client's solver leaves (SOLVE_MEASURE). */
const SOLVE_MEASURE = 'logovote:proof-of-work';

export type PollKind = 'standard' | 'sharedNetwork';

export interface ScriptLevel {
  level: number;
  /** Voters of the first 200 of an address who need this level. */
  voters: number;
  /** The attempts its challenges take on average. */
  attempts: number;
  /** CPU (user + system) of each single solve, and the attempts it took (the solution's counter + 1). */
  solves: { cpuMs: number; attempts: number }[];
}

export interface PollKindResults {
  kind: PollKind;
  /** Voters of an address who vote without a proof. */
  freeVoters: number;
  /** The 200th voter's level, and the attempts its challenges take on average. */
  officeLevel: number;
  officeAttempts: number;
  /** The page's single solves at that level, unslowed, with the attempts each took. */
  pageSolves: { solveMs: number; attempts: number }[];
  script: ScriptLevel[];
}

export interface ProofOfWorkResults {
  iterations: number;
  workers: number;
  cpuSlowdown: number;
  kinds: PollKindResults[];
}

const fingerprint = () => randomBytes(8).toString('hex');

/** The attempts a solved proof took: its counter, tried from 0. */
const attemptsOf = (proof: string) =>
  (JSON.parse(Buffer.from(proof, 'base64').toString('utf8')) as { solution: { counter: number } }).solution.counter + 1;

/** What the page functions below use of the browser (this program is not compiled against the DOM). */
interface PageGlobals {
  performance: { getEntriesByName(name: string): { duration: number }[] };
  document: { querySelector(selector: string): { textContent: string | null } | null };
}

/**
 * The voting page solving `PAGE_SOLVES` challenges of `level`: its first answer to each vote is a 428 with
 * a challenge the bench signs as the votes service does; the vote with the proof then goes to the service,
 * which counts it. One page votes for the two logos in turn ('Vote', then 'Change Vote').
 */
async function measurePage(
  browser: Browser,
  gateway: string,
  poll: BenchPoll,
  challengeOf: () => Promise<VoteChallenge>,
  required: Omit<ProofRequired, 'challenge'>,
): Promise<{ solveMs: number; attempts: number }[]> {
  const context = await mobileContext(browser);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setHardwareConcurrencyOverride', { hardwareConcurrency: PAGE_WORKERS });
    const attempts: number[] = [];
    await page.route(`**/api/sessions/${poll.sessionId}/vote`, async (route: Route) => {
      const proof = route.request().headers()['x-vote-proof'];
      if (proof) {
        attempts.push(attemptsOf(proof));
        await route.continue();
        return;
      }
      const body: ProofRequired = { ...required, challenge: await challengeOf() };
      await route.fulfill({ status: 428, contentType: 'application/json', body: JSON.stringify(body) });
    });
    await page.goto(`${gateway}/vote/${poll.sessionId}`);
    await page.waitForSelector('[data-remote="vote"][data-phase="voting"]', { timeout: 60_000 });
    const button = page.getByTestId('vote-button');
    for (let i = 0; i < PAGE_SOLVES; i++) {
      // The dots switch logos on a touch screen (Previous and Next are for fine pointers).
      if (i > 0) await page.getByRole('button', { name: `Show logo ${(i % 2) + 1} of 2` }).click();
      await button.click();
      await page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.querySelector('[data-testid="vote-button"]')?.textContent?.trim() === 'Voted!',
        undefined,
        { timeout: 120_000, polling: 20 },
      );
    }
    const solveMs = await page.evaluate(
      (name) => (globalThis as unknown as PageGlobals).performance.getEntriesByName(name).map((entry) => entry.duration),
      SOLVE_MEASURE,
    );
    if (solveMs.length !== PAGE_SOLVES || attempts.length !== PAGE_SOLVES)
      throw new Error(`expected ${PAGE_SOLVES} solves, saw ${solveMs.length} measured and ${attempts.length} proofs`);
    return solveMs.map((ms, index) => ({ solveMs: ms, attempts: attempts[index]! }));
  } finally {
    await context.close();
  }
}

/** A script's single solves of each level the first 200 voters of an address reach. */
async function measureScript(
  policy: AddressPolicy,
  challengeOf: (level: number, attempts: number) => Promise<VoteChallenge>,
): Promise<ScriptLevel[]> {
  const levels: ScriptLevel[] = [];
  for (let seat = policy.seats.seatsWithoutProof; seat < OFFICE_VOTERS; seat++) {
    const level = levelOfSeat(policy.seats, seat);
    const known = levels.find((entry) => entry.level === level);
    if (known) known.voters++;
    else levels.push({ level, voters: 1, attempts: attemptsAt(policy.cost, level), solves: [] });
  }
  for (const entry of levels) {
    for (let i = 0; i < SCRIPT_SOLVES_PER_LEVEL; i++) {
      const challenge = await challengeOf(entry.level, entry.attempts);
      const before = process.cpuUsage();
      const proof = await solveVoteChallenge(challenge);
      const used = process.cpuUsage(before);
      entry.solves.push({ cpuMs: (used.user + used.system) / 1000, attempts: attemptsOf(proof) });
    }
  }
  return levels;
}

/** A check that the bench's challenges are the service's: a real 428 of the first level, solved and counted. */
async function checkAgainstService(gateway: string, poll: BenchPoll, policy: AddressPolicy): Promise<void> {
  const target = targetOf(gateway, '127.60.0.1');
  const session = await call(target, { method: 'GET', path: `/api/sessions/${poll.sessionId}` });
  const { csrfToken } = JSON.parse(session.body) as { csrfToken: string };
  const cookie = (session.headers['set-cookie'] ?? '').match(/lv_csrf=[^;,\s]+/)?.[0] ?? '';
  for (let voter = 0; voter <= policy.seats.seatsWithoutProof; voter++) {
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
        body: JSON.stringify({ logoId: poll.logoIds[0] }),
      });
    const first = await send();
    if (voter < policy.seats.seatsWithoutProof) {
      if (first.status !== 200) throw new Error(`a free voter was answered ${first.status}: ${first.body}`);
      continue;
    }
    const asked = JSON.parse(first.body) as ProofRequired;
    if (first.status !== 428 || asked.level !== 1 || asked.attempts !== attemptsAt(policy.cost, 1))
      throw new Error(`the service's first challenge is not the bench's: ${first.status} ${first.body}`);
    const counted = await send(await solveVoteChallenge(asked.challenge));
    if (counted.status !== 200) throw new Error(`a solved vote was answered ${counted.status}: ${counted.body}`);
  }
}

/**
 * Chromium's CPU throttling (DevTools protocol) slows the page's threads, but WebCrypto's PBKDF2 runs on
 * Chromium's own worker pool, which it does not slow: the page solves at this machine's speed, and a
 * phone four times slower takes four times as long (docs/performance.md).
 */
export async function measureProofOfWork(options: {
  gateway: string;
  browser: Browser;
  logo: Buffer;
  ipHashSalt: string;
  log: (line: string) => void;
}): Promise<ProofOfWorkResults> {
  // The votes service's defaults, as the stack runs it.
  const config = loadConfig({ MONGODB_URI: 'mongodb://unused', CSRF_SECRET: 'x'.repeat(32), IP_HASH_SALT: options.ipHashSalt });
  const policies = addressPolicies(config);
  const challenges = proofOfWork({ secret: options.ipHashSalt, iterations: config.PROOF_OF_WORK_ITERATIONS });
  const kinds: PollKindResults[] = [];
  for (const kind of ['standard', 'sharedNetwork'] as const) {
    const policy = policies[kind];
    const logos = [0, 1].map((index) => ({ name: `logo-${index}.png`, type: 'image/png', bytes: options.logo }));
    const poll = (await createPolls(options.gateway, 1, logos, kind === 'sharedNetwork' ? { sharedNetwork: 'true' } : {})).polls[0]!;
    await checkAgainstService(options.gateway, poll, policy);
    const officeLevel = levelOfSeat(policy.seats, OFFICE_VOTERS - 1);
    const officeAttempts = attemptsAt(policy.cost, officeLevel);
    options.log(`  ${kind}: a script's solves of levels 1 to ${officeLevel}`);
    const script = await measureScript(policy, (level, attempts) => challenges.challengeFor(poll.sessionId, level, attempts));
    options.log(`  ${kind}: ${PAGE_SOLVES} solves by the voting page at level ${officeLevel} (${officeAttempts} attempts on average)`);
    const pageSolves = await measurePage(
      options.browser,
      options.gateway,
      poll,
      () => challenges.challengeFor(poll.sessionId, officeLevel, officeAttempts),
      { message: PROOF_REQUIRED, level: officeLevel, attempts: officeAttempts },
    );
    kinds.push({ kind, freeVoters: policy.seats.seatsWithoutProof, officeLevel, officeAttempts, pageSolves, script });
  }
  return { iterations: config.PROOF_OF_WORK_ITERATIONS, workers: PAGE_WORKERS, cpuSlowdown: MOBILE_PROFILE.cpuSlowdown, kinds };
}
