import type { Logger } from 'pino';

/**
 * Runs `task` now and then `intervalMs` after each run ends, never two at once, until stopped (a
 * service's sweeps and folders). A failed run (the database away) is logged and the next one tries again.
 */
export function runInBackground(name: string, task: () => Promise<unknown>, intervalMs: number, logger: Logger): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    running = task()
      .then(
        () => undefined,
        (error: unknown) => logger.error({ err: error, task: name }, `${name} failed; trying again on the next run`),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(run, intervalMs).unref();
      });
  };
  run();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
