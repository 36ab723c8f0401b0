import { foldDuePolls } from '@logovote/models';
import type { Logger } from '@logovote/service-kit';

/** How often the folder looks for polls with entries to fold. */
const FOLD_INTERVAL_MS = 1_000;

/**
 * Folds the vote ledger into per-poll tallies in the background (the votes service owns both), so the
 * counts a reader adds up stay a few documents whatever the number of votes. Counts are exact without
 * it; a failed pass (the database away) is logged and the next one tries again.
 */
export function startTallyFolder(logger: Logger): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        await foldDuePolls();
      } catch (error: unknown) {
        logger.warn({ err: error }, 'folding vote tallies failed; retrying on the next pass');
      }
    });
  }, FOLD_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
