import { z } from 'zod';
import { MAX_REASON_LENGTH, reasonLength } from './limits';
import { plainText, textMessages } from './text';

/** 'Why this one?': a voter's optional one-line reason for its vote (docs/reasons.md). */

const REASON_TEXT = textMessages('The reason');

export const REASON_MESSAGES = {
  required: 'Please write a reason',
  notText: 'The reason must be text',
  tooLong: `The reason must be at most ${MAX_REASON_LENGTH} characters`,
  multiline: REASON_TEXT.lineBreak,
  control: REASON_TEXT.control,
  direction: REASON_TEXT.direction,
  noVote: 'Vote first: a reason explains your vote',
  voteChanged: 'Your vote changed while the reason was being sent. Please send it again.',
} as const;

/** PUT /api/sessions/{sessionId}/reason: the reason for the visitor's current vote, trimmed; it replaces one given before. */
export const ReasonRequest = z.object({
  reason: plainText('The reason', {
    error: (issue) => (issue.input === undefined ? REASON_MESSAGES.required : REASON_MESSAGES.notText),
  })
    .transform((text) => text.normalize('NFC'))
    .refine((text) => text.length > 0, REASON_MESSAGES.required)
    .refine((text) => reasonLength(text) <= MAX_REASON_LENGTH, REASON_MESSAGES.tooLong),
});
export type ReasonRequest = z.input<typeof ReasonRequest>;
/** The reason as stored and shown: profanity masked. */
export const ReasonResponse = z.object({ logoId: z.string(), reason: z.string() });
export type ReasonResponse = z.infer<typeof ReasonResponse>;

/** A page cursor: where the previous page stopped (opaque to clients). */
const ReasonsCursor = z.string().regex(/^\d{1,9}$/, 'cursor must be a cursor from a previous page');

/** GET /api/sessions/{sessionId}/reasons?logoId=...&cursor=...: the newest reasons for a logo first. */
export const ReasonsQuery = z.object({
  logoId: z.string({ error: 'logoId is required' }).min(1, 'logoId is required').max(64, 'This logo is not part of this voting session'),
  cursor: ReasonsCursor.optional(),
});
export type ReasonsQuery = z.infer<typeof ReasonsQuery>;
export const ShownReason = z.object({ reason: z.string(), at: z.string() });
export type ShownReason = z.infer<typeof ShownReason>;
/** `next`: the cursor of the following (older) page; null on the last page. */
export const ReasonsPage = z.object({ reasons: z.array(ShownReason), next: z.string().nullable() });
export type ReasonsPage = z.infer<typeof ReasonsPage>;

/** The file name of a poll's results export (GET /api/sessions/{sessionId}/results.csv). */
export const resultsCsvFileName = (sessionId: string): string => `logovote-results-${sessionId}.csv`;
