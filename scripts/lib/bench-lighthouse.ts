/**
 * The bench's Lighthouse step: the four pages of one poll, on the empty store and again with 100 000 votes stored
 * (scripts/lib/bench-scale.ts calls it at both), each the median run of LIGHTHOUSE_RUNS.
 */
import { loadavg } from 'node:os';
import { runLighthouse, type LighthouseSummary } from './lighthouse';

export const LIGHTHOUSE_RUNS = 3;

export interface LighthouseLevel {
  /** Votes stored in the database when the pages were measured. */
  storedVotes: number;
  /** Of them, the measured poll's. */
  pollVotes: number;
  /** Load average (1/5/15 min) when the step began. */
  load: number[];
  pages: LighthouseSummary[];
}

async function countPollVotes(gateway: string, pollId: string): Promise<number> {
  const session = (await (await fetch(`${gateway}/api/sessions/${pollId}`)).json()) as { logos: { voteCount: number }[] };
  return session.logos.reduce((sum, logo) => sum + logo.voteCount, 0);
}

/** Lighthouse on `/`, the poll's voting and results pages, and the admin's poll list (with the admin's Basic credentials). */
export async function measureLighthouseLevel(options: {
  gateway: string;
  pollId: string;
  admin: { username: string; password: string };
  storedVotes: number;
}): Promise<LighthouseLevel> {
  const { gateway, pollId } = options;
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
  return { storedVotes: options.storedVotes, pollVotes: await countPollVotes(gateway, pollId), load, pages };
}
