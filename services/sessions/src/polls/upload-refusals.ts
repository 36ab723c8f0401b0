import { RefusalCheck } from '@logovote/contracts';
import type { UploadRejected, UploadedFile } from '@logovote/media-pipeline';
import { recordUploadRefusal, type NewUploadRefusal } from '@logovote/models';
import type { Logger } from '@logovote/service-kit';
import { z } from 'zod';

/** What is kept of a moderation refusal's raw response (the suite's): which checks refused, and each one's reason. */
const SuiteVerdicts = z.object({ refusedBy: z.array(z.string()).optional(), checks: z.array(RefusalCheck).min(1) });

/** A refused upload as kept: the file's facts and the refusal, never the image nor a model's raw output. */
export function refusalOf(file: UploadedFile, error: UploadRejected): NewUploadRefusal {
  const verdicts = error.stage === 'moderation' ? SuiteVerdicts.safeParse(error.details).data : undefined;
  return {
    fileName: file.originalName,
    declaredType: file.declaredType,
    size: file.size,
    stage: error.stage,
    status: error.status,
    message: error.message,
    ...(verdicts
      ? {
          refusedBy: verdicts.refusedBy ?? verdicts.checks.filter((check) => !check.isValid).map((check) => check.check),
          // Parsed by the schema, which keeps only check, isValid and reason (no timings, no model output).
          checks: verdicts.checks,
        }
      : {}),
  };
}

/**
 * Records the uploads poll creation refuses, for the admin (docs/moderation.md), beside the answer:
 * the creator's 4xx never waits for the write, and a failed write is logged, never answered.
 */
export class UploadRefusalRecorder {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly logger: Logger) {}

  record(file: UploadedFile, error: UploadRejected): void {
    const write = recordUploadRefusal(refusalOf(file, error)).then(
      () => undefined,
      (failure: unknown) => this.logger.warn({ err: failure, stage: error.stage }, 'upload refusal not recorded'),
    );
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  /** Resolves once every write begun so far has ended (before the database connection closes). */
  async idle(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
