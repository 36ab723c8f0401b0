import type { UploadStage } from '@logovote/contracts';
import { HttpError } from '@logovote/service-kit';

/** Which check refused a file (the admin's list of refused uploads names it too). */
export type { UploadStage };

/**
 * A file the pipeline refuses, with a message for the person who chose it: 415 when it is not an
 * accepted type, 422 when it is one but cannot or may not be used. `details` is the raw evidence
 * (the moderation test page shows it).
 */
export class UploadRejected extends HttpError {
  constructor(
    status: 415 | 422,
    message: string,
    readonly stage: UploadStage,
    readonly details: unknown,
  ) {
    super(status, message);
    this.name = 'UploadRejected';
  }
}
