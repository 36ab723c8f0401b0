import { z } from 'zod';
import { MAX_REASON_LENGTH, reasonLength } from './limits';
import { plainText, textMessages } from './text';

/**
 * 'Why this one?': a voter's optional one-line reason for its vote, and 'What would you change?': a
 * voter's optional note on any logo of the poll (docs/reasons.md). Both are the same kind of text.
 */

/** The refusals of a voter's one-line text (a reason, a note), each naming `label` ('The reason'). */
function shortTextMessages(label: string, noun: string) {
  const text = textMessages(label);
  return {
    required: `Please write a ${noun}`,
    notText: `${label} must be text`,
    tooLong: `${label} must be at most ${MAX_REASON_LENGTH} characters`,
    multiline: text.lineBreak,
    control: text.control,
    direction: text.direction,
  };
}

/** One line of at most MAX_REASON_LENGTH characters, trimmed and NFC-normalised, refused with `messages`. */
function shortText(label: string, messages: ReturnType<typeof shortTextMessages>) {
  return plainText(label, {
    error: (issue) => (issue.input === undefined ? messages.required : messages.notText),
  })
    .transform((text) => text.normalize('NFC'))
    .refine((text) => text.length > 0, messages.required)
    .refine((text) => reasonLength(text) <= MAX_REASON_LENGTH, messages.tooLong);
}

const REASON_TEXT = shortTextMessages('The reason', 'reason');
export const REASON_MESSAGES = {
  ...REASON_TEXT,
  noVote: 'Vote first: a reason explains your vote',
  voteChanged: 'Your vote changed while the reason was being sent. Please send it again.',
} as const;

/** PUT /api/sessions/{sessionId}/reason: the reason for the visitor's current vote, trimmed; it replaces one given before. */
export const ReasonRequest = z.object({ reason: shortText('The reason', REASON_TEXT) });
export type ReasonRequest = z.input<typeof ReasonRequest>;
/** The reason as stored and shown: profanity masked. */
export const ReasonResponse = z.object({ logoId: z.string(), reason: z.string() });
export type ReasonResponse = z.infer<typeof ReasonResponse>;

/** A page cursor: where the previous page stopped (opaque to clients). */
const ReasonsCursor = z.string().regex(/^\d{1,9}$/, 'cursor must be a cursor from a previous page');

const LogoIdParameter = z
  .string({ error: 'logoId is required' })
  .min(1, 'logoId is required')
  .max(64, 'This logo is not part of this voting session');

/** GET /api/sessions/{sessionId}/reasons?logoId=...&cursor=...: the newest reasons for a logo first (notes: the same query). */
export const ReasonsQuery = z.object({ logoId: LogoIdParameter, cursor: ReasonsCursor.optional() });
export type ReasonsQuery = z.infer<typeof ReasonsQuery>;
/**
 * `channel`: in a poll with channels (docs/channels.md), the name of the channel the voter came through,
 * or 'Other / direct link'; absent in a poll without channels.
 */
export const ShownReason = z.object({ reason: z.string(), at: z.string(), channel: z.string().optional() });
export type ShownReason = z.infer<typeof ShownReason>;
/** `next`: the cursor of the following (older) page; null on the last page. */
export const ReasonsPage = z.object({ reasons: z.array(ShownReason), next: z.string().nullable() });
export type ReasonsPage = z.infer<typeof ReasonsPage>;

const NOTE_TEXT = shortTextMessages('The note', 'note');
export const NOTE_MESSAGES = {
  ...NOTE_TEXT,
  noVote: 'Vote first: notes come from the voters of this poll',
} as const;

/** PUT /api/sessions/{sessionId}/note: the visitor's note on one logo, trimmed; it replaces one given before. */
export const NoteRequest = z.object({ logoId: LogoIdParameter, note: shortText('The note', NOTE_TEXT) });
export type NoteRequest = z.input<typeof NoteRequest>;
/** The note as stored and shown: profanity masked. */
export const NoteResponse = z.object({ logoId: z.string(), note: z.string() });
export type NoteResponse = z.infer<typeof NoteResponse>;
/** DELETE /api/sessions/{sessionId}/note?logoId=...: removes the visitor's note on that logo. */
export const NoteQuery = z.object({ logoId: LogoIdParameter });
export type NoteQuery = z.infer<typeof NoteQuery>;
/** GET /api/sessions/{sessionId}/my-notes: the visitor's notes in the poll, one per logo at most. */
export const MyNotes = z.object({ notes: z.array(NoteResponse) });
export type MyNotes = z.infer<typeof MyNotes>;
/** GET /api/sessions/{sessionId}/notes?logoId=...&cursor=...: a logo's notes, newest first (`channel` as for reasons). */
export const ShownNote = z.object({ note: z.string(), at: z.string(), channel: z.string().optional() });
export type ShownNote = z.infer<typeof ShownNote>;
export const NotesPage = z.object({ notes: z.array(ShownNote), next: z.string().nullable() });
export type NotesPage = z.infer<typeof NotesPage>;

/** The file name of a poll's results export (GET /api/sessions/{sessionId}/results.csv). */
export const resultsCsvFileName = (sessionId: string): string => `logovote-results-${sessionId}.csv`;

/** One theme of a logo's reasons (docs/reasons.md, "Themes"): its label, how many reasons say it, and one or two of them verbatim. */
export const ShownTheme = z.object({ label: z.string(), count: z.number().int().nonnegative(), quotes: z.array(z.string()) });
export type ShownTheme = z.infer<typeof ShownTheme>;
/**
 * A logo's themes: `reasons` is how many reasons they were found in (themes need at least
 * MIN_REASONS_FOR_THEMES); `channels`, for the creator of a poll with channels, the themes of each channel's
 * own reasons (named as the reasons' channels are).
 */
export const LogoThemes = z.object({
  logoId: z.string(),
  reasons: z.number().int().nonnegative(),
  themes: z.array(ShownTheme),
  channels: z.array(z.object({ channel: z.string(), reasons: z.number().int().nonnegative(), themes: z.array(ShownTheme) })).optional(),
});
export type LogoThemes = z.infer<typeof LogoThemes>;
/** GET /api/sessions/{sessionId}/themes: every logo's themes, in the poll's order. */
export const ThemesResponse = z.object({ logos: z.array(LogoThemes) });
export type ThemesResponse = z.infer<typeof ThemesResponse>;
