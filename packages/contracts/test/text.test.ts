import type { z } from 'zod';

import { AnalyticsEvent } from '../src/analytics';
import { NotifyRequest } from '../src/notify';
import { ReasonRequest } from '../src/reasons';
import { ReportRequest } from '../src/reports';
import { CreateSessionFields } from '../src/sessions';
import { plainText, textMessages } from '../src/text';

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** C0, DEL and C1. */
const CONTROLS = [...range(0x00, 0x1f), 0x7f, ...range(0x80, 0x9f)];
const LINE_BREAKS = [0x0a, 0x0d, 0x85, 0x2028, 0x2029];
const DIRECTION_CONTROLS = [...range(0x202a, 0x202e), ...range(0x2066, 0x2069)];

/** The one message of a refusal, or the parsed value. */
function outcome(schema: z.ZodType, value: unknown): { message: string } | { value: unknown } {
  const result = schema.safeParse(value);
  if (result.success) return { value: result.data };
  expect(result.error.issues).toHaveLength(1);
  return { message: result.error.issues[0]!.message };
}

describe('plainText: the building block of every free-text field', () => {
  const line = plainText('The thing');
  const lines = plainText('The thing', { multiline: true });
  const messages = textMessages('The thing');
  const multilineMessages = textMessages('The thing', true);

  it('keeps ordinary text of any script, trimmed', () => {
    for (const text of ['Which logo?', 'Café crème', '日本語のロゴ', 'שלום עולם', 'مرحبا', '👍🏽 family 👨‍👩‍👧', 'a\u00a0b']) {
      expect(outcome(line, `  ${text}\t`)).toEqual({ value: text });
    }
  });

  it('keeps the right-to-left marks (U+200E, U+200F, U+061C): right-to-left writing needs them', () => {
    expect(outcome(line, 'ABC\u200F.\u200E\u061C')).toEqual({ value: 'ABC\u200F.\u200E\u061C' });
  });

  it.each(CONTROLS.filter((code) => !LINE_BREAKS.includes(code)).map((code) => [hex(code), code]))(
    'refuses the control character %s in a single-line field',
    (_, code) => {
      expect(outcome(line, `a${String.fromCharCode(code)}b`)).toEqual({ message: messages.control });
    },
  );

  it.each(LINE_BREAKS.map((code) => [hex(code), code]))('refuses the line break %s in a single-line field', (_, code) => {
    expect(outcome(line, `a${String.fromCharCode(code)}b`)).toEqual({ message: messages.lineBreak });
  });

  it.each(DIRECTION_CONTROLS.map((code) => [hex(code), code]))('refuses the text-direction control %s in every field', (_, code) => {
    const text = `invoice${String.fromCharCode(code)}gnp.exe`;
    expect(outcome(line, text)).toEqual({ message: messages.direction });
    expect(outcome(lines, text)).toEqual({ message: multilineMessages.direction });
  });

  it('keeps line breaks and tabs where the field has lines, with every line ending made \\n', () => {
    expect(outcome(lines, 'first\r\nsecond\rthird\n\tfourth\u2028fifth')).toEqual({ value: 'first\nsecond\nthird\n\tfourth\u2028fifth' });
  });

  it.each(CONTROLS.filter((code) => ![0x09, 0x0a, 0x0d].includes(code)).map((code) => [hex(code), code]))(
    'refuses the control character %s where the field has lines',
    (_, code) => {
      expect(outcome(lines, `a\n${String.fromCharCode(code)}b`)).toEqual({ message: multilineMessages.control });
    },
  );

  it('refuses an unpaired surrogate, and keeps a pair', () => {
    expect(outcome(line, 'a\ud800b')).toEqual({ message: messages.invalid });
    expect(outcome(line, 'b\udc00')).toEqual({ message: messages.invalid });
    expect(outcome(line, '\ud83d\ude00')).toEqual({ value: '😀' });
  });

  it('names the field in every message', () => {
    for (const message of [...Object.values(messages), ...Object.values(multilineMessages)]) expect(message).toMatch(/^The thing /);
  });

  it('answers with the one message given for every refusal, and with its own message for a value that is not text', () => {
    const schema = plainText('The address', { refusal: 'Not an address', error: 'Must be text' });
    for (const text of ['a\u0000b', 'a\nb', 'a\u202eb', 'a\ud800b']) expect(outcome(schema, text)).toEqual({ message: 'Not an address' });
    expect(outcome(schema, 42)).toEqual({ message: 'Must be text' });
  });
});

describe('every text field of the API refuses NUL and text-direction controls', () => {
  const event = { name: 'page_view', path: '/', occurredAt: '2025-05-24T10:00:00.000Z' };
  const fields: [string, (text: string) => unknown, z.ZodType][] = [
    ['the question (POST /api/sessions)', (text) => ({ feedbackPrompt: text }), CreateSessionFields],
    ['the reason', (text) => ({ reason: text }), ReasonRequest],
    ['the report note', (text) => ({ category: 'other', note: text }), ReportRequest],
    ['the e-mail address', (text) => ({ email: `a${text}@example.com` }), NotifyRequest],
    ['the analytics path', (text) => ({ ...event, path: `/vote/${text}` }), AnalyticsEvent],
    ['the analytics session id', (text) => ({ ...event, session_id: text }), AnalyticsEvent],
    ['the analytics logo id', (text) => ({ ...event, logo_id: text }), AnalyticsEvent],
  ];

  it.each(fields)('%s', (_, body, schema) => {
    expect(schema.safeParse(body('ok')).success).toBe(true);
    for (const bad of ['a\u0000b', 'a\u001bb', 'a\u007fb', 'invoice\u202egnp.exe', 'a\u2066b\u2069']) {
      const result = schema.safeParse(body(bad));
      expect(result.success).toBe(false);
      expect(result.error?.issues).toHaveLength(1);
    }
  });

  it('keeps the lines of a question', () => {
    expect(CreateSessionFields.parse({ feedbackPrompt: ' Which one?\r\nWhy? ' })).toEqual({ feedbackPrompt: 'Which one?\nWhy?' });
  });

  it('says what is wrong and where', () => {
    const result = CreateSessionFields.safeParse({ feedbackPrompt: 'Which\u0000one?' });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['feedbackPrompt', textMessages('The question', true).control],
    ]);
  });
});
