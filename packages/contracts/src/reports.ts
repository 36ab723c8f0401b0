import { z } from 'zod';
import { SessionId } from './common';
import { MAX_REPORT_NOTE_LENGTH, REPORT_CATEGORIES } from './report-categories';
import { Logo } from './sessions';
import { plainText, textMessages } from './text';

export * from './report-categories';

const NOTE_TEXT = textMessages('The note');

export const REPORT_MESSAGES = {
  category: 'Please choose what is wrong with this poll',
  noteNotText: 'The note must be text',
  noteTooLong: `The note must be at most ${MAX_REPORT_NOTE_LENGTH} characters`,
  noteMultiline: NOTE_TEXT.lineBreak,
  noteControl: NOTE_TEXT.control,
  noteDirection: NOTE_TEXT.direction,
  rateLimited: (perHour: number) => `Too many reports from your network address: at most ${perHour} an hour. Please try again later.`,
} as const;

/** POST /api/sessions/{sessionId}/reports (JSON, with X-CSRF-Token): a voter reports a poll. */
export const ReportRequest = z.object({
  category: z.enum(REPORT_CATEGORIES, { error: REPORT_MESSAGES.category }),
  note: plainText('The note', { error: REPORT_MESSAGES.noteNotText })
    .transform((text) => text.normalize('NFC'))
    .refine((text) => [...text].length <= MAX_REPORT_NOTE_LENGTH, REPORT_MESSAGES.noteTooLong)
    .optional()
    .transform((text) => (text ? text : undefined)),
});
export type ReportRequest = z.input<typeof ReportRequest>;

/** 200 for a new report and for a repeat from the same address (counted once). */
export const ReportResponse = z.object({ sessionId: SessionId, reported: z.literal(true) });
export type ReportResponse = z.infer<typeof ReportResponse>;

/** The session view says `hidden: true` only while the poll is hidden pending review. */
export const ModerationState = z.object({ hidden: z.boolean().optional() });
export type ModerationState = z.infer<typeof ModerationState>;

/** GET /api/admin/reports: one entry per poll with reports since its last review, hidden ones first. */
export const ReportedPoll = z.object({
  pollId: SessionId,
  feedbackPrompt: z.string().nullable(),
  /** Which review round the reports belong to: PUT .../review names it, so a repeated click reviews once. */
  round: z.number().int().nonnegative(),
  /** Reports since the last review (one per address). */
  reports: z.number().int().nonnegative(),
  reasons: z.array(z.object({ category: z.enum(REPORT_CATEGORIES), count: z.number().int().positive() })),
  /** The reporters' notes, newest first (at most REPORTED_POLL_NOTES). */
  notes: z.array(z.object({ category: z.enum(REPORT_CATEGORIES), note: z.string(), at: z.iso.datetime() })),
  firstReportAt: z.iso.datetime(),
  lastReportAt: z.iso.datetime(),
  hidden: z.boolean(),
  logos: z.array(Logo),
});
export type ReportedPoll = z.infer<typeof ReportedPoll>;
export const ReportedPollList = z.array(ReportedPoll);
export type ReportedPollList = z.infer<typeof ReportedPollList>;
export const REPORTED_POLL_NOTES = 20;

/**
 * PUT /api/admin/reports/{pollId}/review {round}: the admin restores the poll. Reports of that round no
 * longer count and the poll takes votes again; reviewing a round already reviewed answers the same.
 */
export const ReviewRequest = z.object({ round: z.number({ error: 'round must be a number' }).int().nonnegative() });
export type ReviewRequest = z.infer<typeof ReviewRequest>;
export const ReviewedPoll = z.object({ pollId: SessionId, hidden: z.boolean(), round: z.number().int().nonnegative() });
export type ReviewedPoll = z.infer<typeof ReviewedPoll>;
/** 409: a review of a round that has not started (a made-up number). */
export const REVIEW_ROUND_UNKNOWN = 'This poll has no reports in that round.';
