/**
 * Reports (docs/moderation.md): what a voter can report a poll for, free of zod so the voting
 * page's bundle can carry it. The categories are the Terms of Use's moderation list, plus 'other'.
 */
export const REPORT_CATEGORIES = [
  'nudity',
  'violence',
  'hateful',
  'offensive-symbols',
  'gambling-drugs-weapons',
  'human-faces',
  'copyright',
  'misleading',
  'other',
] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

/** How each category is worded on the report dialog and in the admin area (the terms' wording). */
export const REPORT_CATEGORY_LABELS: Record<ReportCategory, string> = {
  nudity: 'Nudity',
  violence: 'Violence',
  hateful: 'Hateful content',
  'offensive-symbols': 'Offensive symbols',
  'gambling-drugs-weapons': 'Gambling, drugs or weapons',
  'human-faces': 'Human faces',
  copyright: 'Copyright infringement',
  misleading: 'Misleading or impersonating',
  other: 'Something else',
};

/** A report's optional note is one line of at most this many characters. */
export const MAX_REPORT_NOTE_LENGTH = 140;

/** 409: a vote (or a reason) on a poll hidden pending review; 403 for its link preview image. */
export const POLL_HIDDEN = 'This poll is hidden pending review.';
