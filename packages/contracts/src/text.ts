import { z } from 'zod';

/**
 * Text people write (a question, a file name, a reason, a note, an e-mail address, analytics fields) is
 * refused, never silently changed, when it holds characters that do not belong in text shown to others:
 * - control characters (C0 U+0000 to U+001F, DEL U+007F, C1 U+0080 to U+009F): the database refuses NUL
 *   in a string, and the others are invisible or act on terminals. Line breaks and tabs only where a field
 *   has lines (`multiline`);
 * - the bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069): they make
 *   text display in another order than it is stored ("invoice\u202Egnp.exe" shows as "invoiceexe.png").
 *   The marks U+200E, U+200F and U+061C stay allowed: right-to-left writing needs them, and they cannot
 *   reorder letters;
 * - unpaired UTF-16 surrogates, which are no characters at all.
 * SECURITY.md ("Text input") gives the reasons; docs/api lists each field's rule.
 */

const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;
const CONTROL = /\p{Cc}/u;
/** Controls other than tab, line feed and carriage return. */
const CONTROL_BESIDE_LINES = /(?![\t\n\r])\p{Cc}/u;
const DIRECTION_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
const LONE_SURROGATE = /\p{Cs}/u;

export interface PlainTextOptions {
  /** Line breaks (and tabs) are part of the text, as in a question's paragraphs; elsewhere they are refused. */
  multiline?: boolean;
  /** zod's message for a value that is missing or not a string. */
  error?: z.core.$ZodStringParams['error'];
  /** One message for every refusal, where it says it best (an e-mail address with any of these is simply not valid). */
  refusal?: string;
}

/** The refusals of plainText(label), e.g. "The reason must be a single line". */
export function textMessages(label: string, multiline = false) {
  return {
    lineBreak: `${label} must be a single line`,
    control: multiline
      ? `${label} must not contain control characters other than line breaks and tabs (U+0000 to U+001F, U+007F to U+009F)`
      : `${label} must not contain control characters such as NUL, tab or escape (U+0000 to U+001F, U+007F to U+009F)`,
    direction: `${label} must not contain invisible text-direction controls (U+202A to U+202E, U+2066 to U+2069)`,
    invalid: `${label} must be valid Unicode text`,
  };
}

/**
 * The one building block of every free-text input field: a string, trimmed (line endings made `\n` when
 * multiline), refused with one message naming `label` when it holds a character the rules above exclude.
 * Chain length limits and the like after it.
 */
export function plainText(label: string, options: PlainTextOptions = {}) {
  const { multiline = false, refusal } = options;
  const messages = textMessages(label, multiline);
  const base = z.string(options.error === undefined ? undefined : { error: options.error }).trim();
  const text = multiline ? base.overwrite((value) => value.replace(/\r\n?/g, '\n')) : base;
  // One message per refusal, the most specific first: a line break is a control character too.
  return text
    .refine((value) => multiline || !LINE_BREAK.test(value), { message: refusal ?? messages.lineBreak, abort: true })
    .refine((value) => !(multiline ? CONTROL_BESIDE_LINES : CONTROL).test(value), { message: refusal ?? messages.control, abort: true })
    .refine((value) => !DIRECTION_CONTROL.test(value), { message: refusal ?? messages.direction, abort: true })
    .refine((value) => !LONE_SURROGATE.test(value), { message: refusal ?? messages.invalid, abort: true });
}
