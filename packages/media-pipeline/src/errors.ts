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

/**
 * An SVG that would cost too much to draw (too many elements or references, or a drawing that ran out of
 * time): refused before it is judged, like a file over the size limit, so the moderation test answers it
 * with this 422 rather than a verdict. `subject` names the file ('"logo.svg"').
 */
export class SvgTooComplex extends UploadRejected {
  constructor(subject: string, problems: string[]) {
    super(422, `${subject} is too complex to draw safely: ${problems.join('; ')}. Please simplify the SVG or send a PNG.`, 'svg', {
      problems,
    });
    this.name = 'SvgTooComplex';
  }
}
