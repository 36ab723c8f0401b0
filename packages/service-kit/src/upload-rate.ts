import type { IncomingMessage } from 'node:http';
import { z } from 'zod';

/** Settings of services that receive uploads (poll creation, the moderation test page). */
export const uploadRateEnv = z.object({
  /**
   * The slowest average an upload body may arrive at once the grace period is over, in bytes per second:
   * below every real uplink (4 kB/s is 32 kbit/s), far above a client that trickles bytes to hold a connection.
   */
  UPLOAD_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(1).default(4096),
  /** Seconds an upload may take before its average rate is judged: room for a slow start and a mobile link's stalls. */
  UPLOAD_RATE_GRACE_SECONDS: z.coerce.number().positive().default(10),
  /** The longest an upload body may take, whatever its rate (the largest poll creation over Fast 3G takes about 100 s). */
  UPLOAD_MAX_SECONDS: z.coerce.number().positive().default(120),
});

export interface UploadRateLimits {
  minBytesPerSecond: number;
  graceSeconds: number;
  maxSeconds: number;
}

/** The upload limits of a service's configuration. */
export const uploadRateLimits = (config: z.infer<typeof uploadRateEnv>): UploadRateLimits => ({
  minBytesPerSecond: config.UPLOAD_MIN_BYTES_PER_SECOND,
  graceSeconds: config.UPLOAD_RATE_GRACE_SECONDS,
  maxSeconds: config.UPLOAD_MAX_SECONDS,
});

const perSecond = (bytes: number) => (bytes >= 1024 ? `${Math.round(bytes / 1024)} kB` : `${bytes} bytes`);

/** How often the rate is looked at: a too slow upload is cut within a second of crossing a limit. */
const CHECK_INTERVAL_MS = 1000;

/**
 * Watches a request body as it arrives and calls `tooSlow` (once) with a message for the client when its
 * average rate since the watch began falls below `minBytesPerSecond` after the grace period, or when it
 * is still arriving after `maxSeconds`: a client that trickles a body holds a connection and an upload
 * slot for nothing. Returns the function that ends the watch; it also ends when the body is complete.
 */
export function watchUploadRate(req: IncomingMessage, limits: UploadRateLimits, tooSlow: (message: string) => void): () => void {
  const started = performance.now();
  // The connection's count of bytes read, not 'data' events: a listener would switch the body into flowing
  // mode behind its reader's back. The connection may have carried earlier requests (the gateway keeps it open).
  const readBefore = req.socket.bytesRead;
  const check = () => {
    const seconds = (performance.now() - started) / 1000;
    if (seconds >= limits.maxSeconds) {
      stop();
      tooSlow(`The upload took longer than ${limits.maxSeconds} seconds. Please try again on a faster connection.`);
    } else if (seconds >= limits.graceSeconds && (req.socket.bytesRead - readBefore) / seconds < limits.minBytesPerSecond) {
      stop();
      tooSlow(
        `The upload was too slow: less than ${perSecond(limits.minBytesPerSecond)} per second. Please try again on a faster connection.`,
      );
    }
  };
  const timer = setInterval(check, CHECK_INTERVAL_MS).unref();
  function stop() {
    clearInterval(timer);
    req.off('end', stop);
  }
  req.on('end', stop);
  return stop;
}
