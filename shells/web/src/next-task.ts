/**
 * Resolves in a later task of the event loop. Start-up work split at these points runs as several short
 * tasks instead of one long one, so a phone's main thread can take input (and paint) between them.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
