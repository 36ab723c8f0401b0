import type { Logger } from 'pino';

/**
 * Runs `task` every `intervalMs` in the background, one run at a time, until stopped (a service's
 * folders and sweeps). A failed run (the database away) is logged and the next one tries again.
 */
export function runInBackground(name: string, task: () => Promise<unknown>, intervalMs: number, logger: Logger): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        await task();
      } catch (error: unknown) {
        logger.warn({ err: error, task: name }, 'background task failed; retrying on the next run');
      }
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
