import type { ModerationImage, ModerationProvider, ModerationVerdict } from './provider';

/** One check of the suite: what it looks for (shown to people) and the provider that looks. */
export interface ModerationCheck {
  /** What the check covers, e.g. 'nudity' or 'faces'; the key of its verdict in the raw response. */
  check: string;
  provider: ModerationProvider;
}

/** One check's verdict inside the suite's raw response (docs/moderation.md). */
export interface CheckVerdict {
  check: string;
  provider: string;
  isValid: boolean;
  reason: string;
  elapsedMs: number;
  rawResponse: unknown;
}

/**
 * Every check the terms promise, run on each image: the local models (nudity, faces, brand names) and
 * the hosted API when one is configured. An image passes only if every check passes; the reason names
 * every check that refused it (or every check's all-clear), and the raw response keeps each verdict, so
 * the moderation test page and the creation error say which check decided. The checks run together: the
 * classifiers share the main thread, but OCR and the hosted API wait elsewhere meanwhile. A check that
 * cannot give a verdict (ModerationUnavailable) refuses the upload with its 503.
 */
export class ModerationSuite implements ModerationProvider {
  readonly name: string;

  constructor(readonly checks: readonly ModerationCheck[]) {
    if (checks.length === 0) throw new Error('ModerationSuite: at least one check is needed');
    this.name = checks.map((check) => check.provider.name).join('+');
  }

  async warmUp(): Promise<void> {
    await Promise.all(this.checks.map((check) => check.provider.warmUp()));
  }

  async close(): Promise<void> {
    await Promise.all(this.checks.map((check) => check.provider.close?.()));
  }

  async moderate(image: ModerationImage): Promise<ModerationVerdict> {
    const started = performance.now();
    const verdicts = await Promise.all(
      this.checks.map(async ({ check, provider }): Promise<CheckVerdict> => {
        const checkStarted = performance.now();
        const verdict = await provider.moderate(image);
        return { check, provider: provider.name, ...verdict, elapsedMs: Math.round(performance.now() - checkStarted) };
      }),
    );
    const refusals = verdicts.filter((verdict) => !verdict.isValid);
    const decisive = refusals.length > 0 ? refusals : verdicts;
    return {
      isValid: refusals.length === 0,
      reason: decisive.map((verdict) => verdict.reason).join('; '),
      rawResponse: {
        provider: 'suite',
        refusedBy: refusals.map((verdict) => verdict.check),
        checks: verdicts,
        elapsedMs: Math.round(performance.now() - started),
      },
    };
  }
}
