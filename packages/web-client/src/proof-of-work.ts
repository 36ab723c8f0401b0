import type { VoteChallenge } from '@logovote/contracts';
import { solveChallengeWorkers } from 'altcha-lib';

/** Workers solving at once: the device's cores, up to four (the counter space is split between them). */
const MAX_WORKERS = 4;
/** The name of the performance entry each solve leaves. */
export const SOLVE_MEASURE = 'logovote:proof-of-work';

/**
 * Solves a vote's proof-of-work challenge in Web Workers (the page stays responsive meanwhile) and
 * returns the X-Vote-Proof header's value. Loaded only when a vote is answered with a challenge.
 */
export async function solveVoteChallenge(challenge: VoteChallenge): Promise<string> {
  const started = performance.now();
  const solution = await solveChallengeWorkers({
    challenge,
    concurrency: Math.min(MAX_WORKERS, navigator.hardwareConcurrency || 1),
    createWorker: () => new Worker(new URL('./proof-of-work.worker.ts', import.meta.url)),
  });
  // A User Timing entry, for DevTools and the bench (docs/performance.md).
  performance.measure(SOLVE_MEASURE, { start: started });
  if (!solution) throw new Error('The proof-of-work challenge could not be solved in time');
  return btoa(JSON.stringify({ challenge, solution }));
}
