/**
 * The bench's Lighthouse step: the four pages of one poll, on the empty store and again with 100 000 votes stored
 * (bench/lib/scale.ts calls it at both), each the median run of LIGHTHOUSE_RUNS.
 */
import { cpus, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { machineBusySeconds } from './processes';
import { runLighthouse, type LighthouseSummary } from './lighthouse';
import { voteCounts } from './polls';

export const LIGHTHOUSE_RUNS = 3;

export interface LighthouseLevel {
  /** Votes stored in the database when the pages were measured. */
  storedVotes: number;
  /** Of them, the measured poll's. */
  pollVotes: number;
  /** Load average (1/5/15 min) when the step began. */
  load: number[];
  /** Share of the machine's CPU busy over the last second before the first run, and the seconds waited for it. */
  busyShare: number;
  settleSeconds: number;
  pages: LighthouseSummary[];
}

/** Below this share of all cores busy, the machine is quiet enough to measure a page. */
const QUIET_BUSY_SHARE = 0.15;
const SETTLE_LIMIT_SECONDS = 120;

/**
 * Lighthouse times the page's main-thread tasks for real and multiplies them by its simulated 4x CPU slowdown, so
 * work left over from the step before (the media service inspecting the polls' logos, the database settling its
 * writes) would be counted as the page's blocking time. Waits, up to two minutes, until a whole second passes with
 * the machine under QUIET_BUSY_SHARE busy, and reports what it found either way.
 */
export async function settle(log: (line: string) => void): Promise<{ busyShare: number; settleSeconds: number }> {
  const started = performance.now();
  let busyShare = 1;
  while ((performance.now() - started) / 1000 < SETTLE_LIMIT_SECONDS) {
    const before = machineBusySeconds();
    await sleep(1000);
    busyShare = (machineBusySeconds() - before) / cpus().length;
    if (busyShare < QUIET_BUSY_SHARE) break;
  }
  const settleSeconds = Math.round((performance.now() - started) / 1000);
  log(`  machine ${Math.round(busyShare * 100)} % busy after ${settleSeconds} s of settling`);
  return { busyShare, settleSeconds };
}

/** Lighthouse on `/`, the poll's voting and results pages, and the admin's poll list (with the admin's Basic credentials). */
export async function measureLighthouseLevel(options: {
  gateway: string;
  pollId: string;
  admin: { username: string; password: string };
  storedVotes: number;
  log: (line: string) => void;
}): Promise<LighthouseLevel> {
  const { gateway, pollId } = options;
  const { busyShare, settleSeconds } = await settle(options.log);
  const load = loadavg();
  const pages = await runLighthouse({
    runs: LIGHTHOUSE_RUNS,
    pages: [
      { label: '/', url: `${gateway}/` },
      { label: '/vote/:id', url: `${gateway}/vote/${pollId}` },
      { label: '/results/:id', url: `${gateway}/results/${pollId}` },
      { label: '/admin/polls', url: `${gateway}/admin/polls`, basicAuth: options.admin },
    ],
  });
  const pollVotes = Object.values(await voteCounts(gateway, pollId)).reduce((sum, n) => sum + n, 0);
  return { storedVotes: options.storedVotes, pollVotes, load, busyShare, settleSeconds, pages };
}
