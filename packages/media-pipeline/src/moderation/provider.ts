import { HttpError, type Logger } from '@logovote/service-kit';

/** An image prepared for classification: raw RGB (3 channels), at most a few hundred pixels a side. */
export interface ModerationImage {
  data: Buffer;
  width: number;
  height: number;
}

/** What a provider says about an image; rawResponse is shown by the moderation test page. */
export interface ModerationVerdict {
  isValid: boolean;
  reason: string;
  rawResponse: unknown;
}

/** A content classifier. The upload pipeline depends only on this, so providers switch by configuration. */
export interface ModerationProvider {
  readonly name: string;
  /** Loads what the provider needs (e.g. the model); moderate() waits for it too, so calling this is optional. */
  warmUp(): Promise<void>;
  moderate(image: ModerationImage): Promise<ModerationVerdict>;
  /** Releases what keeps the process alive (worker threads), for shutdown and tests. */
  close?(): Promise<void>;
}

export const MODERATION_UNAVAILABLE = 'Content moderation is unavailable. Please try again shortly.';

/** The classifier could not give a verdict: uploads are refused rather than let through unchecked. */
export class ModerationUnavailable extends HttpError {
  constructor(override readonly cause: unknown) {
    super(503, MODERATION_UNAVAILABLE, { 'Retry-After': '30' });
    this.name = 'ModerationUnavailable';
  }
}

/** Loads the provider at start without holding the service up; uploads wait for it if they come first. */
export function warmUpModeration(provider: ModerationProvider, logger: Logger): void {
  const started = performance.now();
  provider.warmUp().then(
    () => logger.info({ provider: provider.name, loadMs: Math.round(performance.now() - started) }, 'content moderation ready'),
    (error: unknown) =>
      logger.error({ err: error, provider: provider.name }, 'content moderation could not load; uploads wait for a retry'),
  );
}
