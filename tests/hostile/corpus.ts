/**
 * The bad-input corpus: every hostile request, named, with the endpoint it attacks, its category and the
 * answer it must get (a 4xx with a JSON `message`; the status is given where it is determined). Requests are
 * built from a context of real ids, tokens and images made at test time. Counted in docs/reliability.md.
 */
import { gzipSync } from 'node:zlib';
import type { HttpCall, Part } from './support/http';
import { multipart } from './support/http';
import { nestedUseSvg } from '../../packages/media-pipeline/test/fixtures';
import {
  HOSTILE_SVGS,
  emptyZip,
  gifScript,
  gzipBomb,
  hugeSvg,
  jpegClaiming,
  useCycleSvg,
  xlinkPrefixAnimation,
  jpegScriptPolyglot,
  pngBomb,
  pngHtmlPolyglot,
  truncated,
  webpHtmlPolyglot,
} from './support/fixtures';

export interface CorpusContext {
  sessionId: string;
  /** A second poll: its token must not work on the first. */
  otherSessionId: string;
  logoIds: string[];
  /** A stored logo's object name. */
  filename: string;
  /** This client's anti-forgery cookie (`lv_csrf=...`) and the tokens for both polls. */
  cookie: string;
  token: string;
  otherToken: string;
  fingerprint: string;
  adminAuthorization: string;
  images: { png: Buffer; jpeg: Buffer; webp: Buffer };
}

export type Endpoint =
  | 'POST /api/sessions'
  | 'GET /api/sessions/{id}'
  | 'PUT /api/sessions/{id}/plan'
  | 'GET /api/sessions/{id}/my-vote'
  | 'POST /api/sessions/{id}/vote'
  | 'POST /api/sessions/{id}/notify'
  | 'PUT /api/sessions/{id}/reason'
  | 'POST /api/sessions/{id}/reports'
  | 'GET|HEAD /api/logos/{filename}'
  | 'POST /api/test/moderate'
  | 'GET|DELETE /api/admin/polls'
  | '/test/fingerprint/*'
  | 'POST /api/analytics/events'
  | 'other /api paths';

export type Category =
  | 'malformed multipart'
  | 'truncated multipart'
  | 'wrong content type'
  | 'invalid JSON'
  | 'deeply nested JSON'
  | 'huge headers'
  | 'huge body'
  | 'unicode edge case'
  | 'path traversal'
  | 'polyglot file'
  | 'SVG script'
  | 'decompression bomb'
  | 'wrong method'
  | 'malformed id'
  | 'malformed fingerprint'
  | 'anti-forgery token'
  | 'injection'
  | 'malformed HTTP'
  | 'missing credentials';

export type RawCall = { raw: string | Buffer; endAfterWrite?: boolean };

export interface HostileCase {
  name: string;
  endpoint: Endpoint;
  category: Category;
  /** The expected status (or any of several); any 4xx when left out. */
  status?: number | number[];
  send(ctx: CorpusContext): HttpCall | RawCall;
}

const json = (body: unknown) => JSON.stringify(body);
const jsonHeaders = { 'Content-Type': 'application/json' };
/** The headers of a browser that holds the poll's token: what a write needs to get past the anti-forgery check. */
const writeHeaders = (ctx: CorpusContext, extra: Record<string, string> = {}) => ({
  ...jsonHeaders,
  Cookie: ctx.cookie,
  'X-CSRF-Token': ctx.token,
  'X-Client-Fingerprint': ctx.fingerprint,
  ...extra,
});
const vote = (ctx: CorpusContext, body: string | Buffer, headers: Record<string, string> = {}): HttpCall => ({
  method: 'POST',
  path: `/api/sessions/${ctx.sessionId}/vote`,
  headers: writeHeaders(ctx, headers),
  body,
});
const notify = (ctx: CorpusContext, body: string | Buffer, headers: Record<string, string> = {}): HttpCall => ({
  method: 'POST',
  path: `/api/sessions/${ctx.sessionId}/notify`,
  headers: writeHeaders(ctx, headers),
  body,
});
const plan = (ctx: CorpusContext, body: string | Buffer, headers: Record<string, string> = {}): HttpCall => ({
  method: 'PUT',
  path: `/api/sessions/${ctx.sessionId}/plan`,
  headers: writeHeaders(ctx, headers),
  body,
});
const create = (parts: Part[], headers: Record<string, string> = {}): HttpCall => {
  const { body, contentType } = multipart(parts);
  return { method: 'POST', path: '/api/sessions', headers: { 'Content-Type': contentType, ...headers }, body };
};
const logo = (filename: string, data: string | Buffer, type = 'image/png'): Part => ({ name: 'logos', filename, type, data });
const moderate = (parts: Part[]): HttpCall => {
  const { body, contentType } = multipart(parts);
  return { method: 'POST', path: '/api/test/moderate', headers: { 'Content-Type': contentType }, body };
};
const myVote = (ctx: CorpusContext, fingerprint?: string): HttpCall => ({
  method: 'GET',
  path: `/api/sessions/${ctx.sessionId}/my-vote`,
  headers: fingerprint === undefined ? {} : { 'X-Client-Fingerprint': fingerprint },
});
const testVote = (body: string, headers: Record<string, string>): HttpCall => ({
  method: 'POST',
  path: '/test/fingerprint/vote',
  headers: { ...jsonHeaders, ...headers },
  body,
});
const rawRequest = (head: string, body: string | Buffer = ''): RawCall => ({
  raw: Buffer.concat([Buffer.from(head.replace(/\n/g, '\r\n'), 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1')]),
});
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const event = { name: 'page_view', path: '/', occurredAt: '2025-05-24T10:00:00.000Z' };
const analytics = (fields: Record<string, string>): HttpCall => ({
  method: 'POST',
  path: '/api/analytics/events',
  headers: jsonHeaders,
  body: json({ events: [{ ...event, ...fields }] }),
});

/**
 * Text no field takes (packages/contracts text.ts), each inside ordinary text: control characters anywhere,
 * text-direction controls anywhere, line breaks and tabs where a field is one line. The database refuses a
 * NUL in a string, so each of these must be refused (400) before anything is stored.
 */
const CONTROL_TEXTS = [
  ['a NUL byte', 'before\u0000after'],
  ['an escape sequence', 'before\u001b[2Jafter'],
  ['DEL', 'before\u007fafter'],
  ['a C1 control (U+009B)', 'before\u009bafter'],
] as const;
const DIRECTION_TEXTS = [
  ['a right-to-left override', 'invoice\u202Egnp.exe'],
  ['a left-to-right embedding', 'before\u202Aafter\u202C'],
  ['a right-to-left isolate', 'before\u2067after\u2069'],
] as const;
const LINE_TEXTS = [
  ['a line feed', 'before\nafter'],
  ['a tab', 'before\tafter'],
] as const;
const FORBIDDEN_TEXTS = [...CONTROL_TEXTS, ...DIRECTION_TEXTS];
const FORBIDDEN_IN_A_LINE = [...FORBIDDEN_TEXTS, ...LINE_TEXTS];

/** A multipart body whose file name travels as RFC 5987 `filename*`, so any character arrives as sent, line breaks included. */
const fileNamed = (path: string, field: string, filename: string, data: Buffer): HttpCall => {
  const boundary = 'XyZfilename';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename*=UTF-8''${encodeURIComponent(filename)}\r\nContent-Type: image/png\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { method: 'POST', path, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body };
};

const BOUNDARY = 'XyZhostile';
const multipartHead = (length: number, boundary = BOUNDARY) =>
  `POST /api/sessions HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: multipart/form-data; boundary=${boundary}\nContent-Length: ${length}\n\n`;
const filePart = (data: string, name = 'logos', filename = 'a.png') =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n${data}\r\n`;

interface TextField {
  field: string;
  endpoint: Endpoint;
  /** Line breaks and tabs are part of the text here. */
  multiline?: boolean;
  send(ctx: CorpusContext, text: string): HttpCall;
}

/** Every free-text field, and a request that carries a text in it (otherwise valid, so only the text can be refused). */
const TEXT_FIELDS: TextField[] = [
  {
    field: 'a question',
    endpoint: 'POST /api/sessions',
    multiline: true,
    send: (ctx, text) => create([{ name: 'feedbackPrompt', data: `Which one? ${text}` }, logo('a.png', ctx.images.png)]),
  },
  {
    field: 'a logo name',
    endpoint: 'POST /api/sessions',
    send: (ctx, text) => create([{ name: 'logoNames', data: `Wordmark ${text}` }, logo('a.png', ctx.images.png)]),
  },
  {
    field: 'a channel name',
    endpoint: 'POST /api/sessions',
    send: (ctx, text) => create([{ name: 'channels', data: `Newsletter ${text}` }, logo('a.png', ctx.images.png)]),
  },
  {
    field: 'the file name of a real PNG',
    endpoint: 'POST /api/sessions',
    send: (ctx, text) => fileNamed('/api/sessions', 'logos', `${text}.png`, ctx.images.png),
  },
  {
    field: 'the file name of an image to moderate',
    endpoint: 'POST /api/test/moderate',
    send: (ctx, text) => fileNamed('/api/test/moderate', 'image', `${text}.png`, ctx.images.png),
  },
  {
    // Refused before the vote is looked up: this browser has not voted, yet the text is what is answered.
    field: 'a reason',
    endpoint: 'PUT /api/sessions/{id}/reason',
    send: (ctx, text) => ({
      method: 'PUT',
      path: `/api/sessions/${ctx.sessionId}/reason`,
      headers: writeHeaders(ctx),
      body: json({ reason: `I like it ${text}` }),
    }),
  },
  {
    // On the other poll: reports that got through would hide it, and the first poll must stay votable here.
    field: 'a report note',
    endpoint: 'POST /api/sessions/{id}/reports',
    send: (ctx, text) => ({
      method: 'POST',
      path: `/api/sessions/${ctx.otherSessionId}/reports`,
      headers: writeHeaders(ctx, { 'X-CSRF-Token': ctx.otherToken }),
      body: json({ category: 'other', note: `Spam ${text}` }),
    }),
  },
  {
    field: 'notify an address',
    endpoint: 'POST /api/sessions/{id}/notify',
    send: (ctx, text) => notify(ctx, json({ email: `a${text}@example.com` })),
  },
  { field: 'an analytics path', endpoint: 'POST /api/analytics/events', send: (_, text) => analytics({ path: `/vote/${text}` }) },
  { field: 'an analytics session_id', endpoint: 'POST /api/analytics/events', send: (_, text) => analytics({ session_id: text }) },
  { field: 'an analytics logo_id', endpoint: 'POST /api/analytics/events', send: (_, text) => analytics({ logo_id: text }) },
];

export const CORPUS: HostileCase[] = [
  // ── POST /api/sessions: multipart, files and the gateway's body cap ──────────────────────────────────────
  {
    name: 'multipart without a boundary',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: () => ({ method: 'POST', path: '/api/sessions', headers: { 'Content-Type': 'multipart/form-data' }, body: 'x' }),
  },
  {
    name: 'multipart whose closing boundary never comes',
    endpoint: 'POST /api/sessions',
    category: 'truncated multipart',
    status: 400,
    send: () => {
      const body = filePart('\x89PNG half a file').replace(/\r\n$/, '');
      return rawRequest(multipartHead(Buffer.byteLength(body, 'latin1')), body);
    },
  },
  {
    name: 'multipart cut off inside the part headers',
    endpoint: 'POST /api/sessions',
    category: 'truncated multipart',
    status: 400,
    send: () => {
      const body = `--${BOUNDARY}\r\nContent-Disposition: form-da`;
      return rawRequest(multipartHead(body.length), body);
    },
  },
  {
    name: 'multipart with a boundary that never appears in the body',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: () => rawRequest(multipartHead(5, 'other-boundary'), 'hello'),
  },
  {
    name: 'multipart part with a header line and no colon',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: () => {
      const body = `--${BOUNDARY}\r\nthis is not a header\r\n\r\ndata\r\n--${BOUNDARY}--\r\n`;
      return rawRequest(multipartHead(body.length), body);
    },
  },
  {
    name: 'multipart part with 40 header lines',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    // The parser keeps the first 16 header lines (then there is no file: 400) or finds the file, which is not an image (415).
    status: [400, 415],
    send: () => {
      const headers = Array.from({ length: 40 }, (_, i) => `X-Part-${i}: ${i}`).join('\r\n');
      const body = `--${BOUNDARY}\r\n${headers}\r\nContent-Disposition: form-data; name="logos"; filename="a.png"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`;
      return rawRequest(multipartHead(body.length), body);
    },
  },
  {
    name: 'chunked multipart whose chunk sizes are not hexadecimal',
    endpoint: 'POST /api/sessions',
    category: 'malformed HTTP',
    status: 400,
    send: () =>
      rawRequest(
        `POST /api/sessions HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\nTransfer-Encoding: chunked\n\n`,
        'zz\r\nnot a chunk\r\n0\r\n\r\n',
      ),
  },
  {
    name: 'no file at all',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: () => create([{ name: 'feedbackPrompt', data: 'Which one?' }]),
  },
  {
    name: 'five logos',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) => create(Array.from({ length: 5 }, (_, i) => logo(`logo-${i}.png`, ctx.images.png))),
  },
  {
    name: 'a file under another field name',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) => create([{ name: 'avatar', filename: 'a.png', type: 'image/png', data: ctx.images.png }]),
  },
  {
    name: 'an unexpected text field',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) => create([{ name: 'isAdmin', data: 'true' }, logo('a.png', ctx.images.png)]),
  },
  {
    name: 'feedbackPrompt sent twice',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) => create([{ name: 'feedbackPrompt', data: 'a' }, { name: 'feedbackPrompt', data: 'b' }, logo('a.png', ctx.images.png)]),
  },
  {
    name: 'two logo names for one logo',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) => create([{ name: 'logoNames', data: 'One' }, { name: 'logoNames', data: 'Two' }, logo('a.png', ctx.images.png)]),
  },
  {
    name: 'logoNames sent five times',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) => create([...['1', '2', '3', '4', '5'].map((data) => ({ name: 'logoNames', data })), logo('a.png', ctx.images.png)]),
  },
  {
    name: 'channels sent ten times',
    endpoint: 'POST /api/sessions',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) =>
      create([...Array.from({ length: 10 }, (_, index) => ({ name: 'channels', data: `C${index}` })), logo('a.png', ctx.images.png)]),
  },
  {
    name: 'a JSON body instead of multipart',
    endpoint: 'POST /api/sessions',
    category: 'wrong content type',
    status: 415,
    send: () => ({ method: 'POST', path: '/api/sessions', headers: jsonHeaders, body: json({ logos: ['a.png'] }) }),
  },
  {
    name: 'a URL-encoded form',
    endpoint: 'POST /api/sessions',
    category: 'wrong content type',
    status: 415,
    send: () => ({
      method: 'POST',
      path: '/api/sessions',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'logos=a.png',
    }),
  },
  {
    name: 'a body with no content type',
    endpoint: 'POST /api/sessions',
    category: 'wrong content type',
    status: 415,
    send: () => ({ method: 'POST', path: '/api/sessions', body: 'hello' }),
  },
  {
    name: 'a file of 2 MB and one byte',
    endpoint: 'POST /api/sessions',
    category: 'huge body',
    status: 413,
    send: (ctx) => {
      const big = Buffer.alloc(2 * 1024 * 1024 + 1);
      ctx.images.png.copy(big);
      return create([logo('big.png', big)]);
    },
  },
  {
    name: 'a feedbackPrompt of 3000 bytes',
    endpoint: 'POST /api/sessions',
    category: 'huge body',
    status: 413,
    send: (ctx) => create([{ name: 'feedbackPrompt', data: 'x'.repeat(3000) }, logo('a.png', ctx.images.png)]),
  },
  {
    name: 'a logo name of 3000 bytes',
    endpoint: 'POST /api/sessions',
    category: 'huge body',
    status: 413,
    send: (ctx) => create([{ name: 'logoNames', data: 'x'.repeat(3000) }, logo('a.png', ctx.images.png)]),
  },
  {
    name: 'a declared body of 8.5 MB (over what four logos need)',
    endpoint: 'POST /api/sessions',
    category: 'huge body',
    status: 413,
    send: () =>
      rawRequest(
        `POST /api/sessions HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\nContent-Length: ${8.5 * 1024 * 1024}\n\n`,
        `--${BOUNDARY}\r\n`,
      ),
  },
  {
    name: 'a declared body of 100 MB (over the gateway cap)',
    endpoint: 'POST /api/sessions',
    category: 'huge body',
    status: 413,
    // The client then stops sending (half-close), as a client told 413 should.
    send: () => ({
      ...rawRequest(
        `POST /api/sessions HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: multipart/form-data; boundary=x\nContent-Length: 104857600\n\n`,
      ),
      endAfterWrite: true,
    }),
  },
  {
    name: 'a prompt of 501 characters of accented letters (1002 bytes)',
    endpoint: 'POST /api/sessions',
    category: 'unicode edge case',
    status: 400,
    send: (ctx) => create([{ name: 'feedbackPrompt', data: 'é'.repeat(501) }, logo('a.png', ctx.images.png)]),
  },
  {
    name: 'a logo name of 61 accented characters (122 bytes)',
    endpoint: 'POST /api/sessions',
    category: 'unicode edge case',
    status: 400,
    send: (ctx) => create([{ name: 'logoNames', data: 'é'.repeat(61) }, logo('a.png', ctx.images.png)]),
  },
  {
    name: 'a file name with a right-to-left override hiding ".html" (not an image)',
    endpoint: 'POST /api/sessions',
    category: 'unicode edge case',
    status: 400,
    send: () => create([logo('logo\u202Elmth.png', '<html><script>alert(1)</script></html>', 'image/png')]),
  },
  {
    name: 'a file name with NUL, CR and LF (not an image)',
    endpoint: 'POST /api/sessions',
    category: 'unicode edge case',
    status: 400,
    send: () => create([logo('a\u0000b\r\nSet-Cookie: x=1.png', 'plain text', 'image/png')]),
  },
  {
    name: 'a file name that climbs directories (not an image)',
    endpoint: 'POST /api/sessions',
    category: 'path traversal',
    status: 415,
    send: () => create([logo('../../../../etc/passwd', 'root:x:0:0:root:/root:/bin/bash\n', 'image/png')]),
  },
  {
    name: 'a Windows path as file name (not an image)',
    endpoint: 'POST /api/sessions',
    category: 'path traversal',
    status: 415,
    send: () => create([logo('..\\..\\windows\\win.ini', '[fonts]\n', 'image/png')]),
  },
  {
    name: 'an HTML page named .png',
    endpoint: 'POST /api/sessions',
    category: 'polyglot file',
    status: 415,
    send: () => create([logo('logo.png', '<!doctype html><script>alert(document.cookie)</script>')]),
  },
  {
    name: 'a PNG signature in front of HTML',
    endpoint: 'POST /api/sessions',
    category: 'polyglot file',
    status: 422,
    send: () => create([logo('logo.png', pngHtmlPolyglot())]),
  },
  {
    name: 'a JPEG marker in front of a script',
    endpoint: 'POST /api/sessions',
    category: 'polyglot file',
    status: 422,
    send: () => create([logo('logo.jpg', jpegScriptPolyglot(), 'image/jpeg')]),
  },
  {
    name: 'a WebP header in front of HTML',
    endpoint: 'POST /api/sessions',
    category: 'polyglot file',
    status: 422,
    send: () => create([logo('logo.webp', webpHtmlPolyglot(), 'image/webp')]),
  },
  {
    name: 'a GIF that is also JavaScript',
    endpoint: 'POST /api/sessions',
    category: 'polyglot file',
    status: 415,
    send: () => create([logo('logo.png', gifScript(), 'image/gif')]),
  },
  {
    name: 'a ZIP archive named .png',
    endpoint: 'POST /api/sessions',
    category: 'polyglot file',
    status: 415,
    send: () => create([logo('logo.png', emptyZip())]),
  },
  {
    name: 'a PDF named .svg',
    endpoint: 'POST /api/sessions',
    category: 'polyglot file',
    status: 415,
    send: () => create([logo('logo.svg', '%PDF-1.7\n1 0 obj <</JS (app.alert(1))>> endobj\n', 'image/svg+xml')]),
  },
  {
    name: 'an HTML document with an inline SVG',
    endpoint: 'POST /api/sessions',
    category: 'polyglot file',
    status: 415,
    send: () =>
      create([
        logo('logo.svg', '<html><body><svg xmlns="http://www.w3.org/2000/svg"/><script>alert(1)</script></body></html>', 'image/svg+xml'),
      ]),
  },
  {
    name: 'the first half of a PNG',
    endpoint: 'POST /api/sessions',
    category: 'polyglot file',
    status: 422,
    send: (ctx) => create([logo('half.png', truncated(ctx.images.png))]),
  },
  {
    name: 'an SVG that is not UTF-8',
    endpoint: 'POST /api/sessions',
    category: 'unicode edge case',
    status: 415,
    send: () =>
      create([
        logo('latin1.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><text>caf\xe9</text></svg>', 'latin1'), 'image/svg+xml'),
      ]),
  },
  ...Object.entries(HOSTILE_SVGS).map(([what, document]): HostileCase => ({
    name: `an SVG with ${what}`,
    endpoint: 'POST /api/sessions',
    category: 'SVG script',
    // Refused by the SVG policy (422), or as not an SVG at all when the XML parser rejects it first (415).
    status: [415, 422],
    send: () => create([logo('logo.svg', document, 'image/svg+xml')]),
  })),
  // ── SVGs too costly to draw, and XLink by another prefix (the SVG limits) ───────────────────────────────────
  {
    name: 'an SVG of nested <use> drawing 10^8 squares from 1.6 kB',
    endpoint: 'POST /api/sessions',
    category: 'decompression bomb',
    status: 422,
    send: () => create([logo('bomb.svg', nestedUseSvg(8), 'image/svg+xml')]),
  },
  {
    name: 'an SVG of nested <use> drawing 10^8 squares, to the moderation test',
    endpoint: 'POST /api/test/moderate',
    category: 'decompression bomb',
    status: 422,
    send: () => moderate([{ name: 'image', filename: 'bomb.svg', type: 'image/svg+xml', data: nestedUseSvg(8) }]),
  },
  {
    name: 'an SVG logo of 10^5 <use> instances in 1 kB',
    endpoint: 'POST /api/sessions',
    category: 'decompression bomb',
    status: 422,
    send: () => create([logo('logo.svg', nestedUseSvg(5), 'image/svg+xml')]),
  },
  {
    name: 'an SVG whose <use> elements draw each other',
    endpoint: 'POST /api/sessions',
    category: 'decompression bomb',
    status: 422,
    send: () => create([logo('cycle.svg', useCycleSvg(), 'image/svg+xml')]),
  },
  {
    name: 'an SVG animating xl:href (the XLink namespace under another prefix)',
    endpoint: 'POST /api/sessions',
    category: 'SVG script',
    status: 422,
    send: () => create([logo('link.svg', xlinkPrefixAnimation(), 'image/svg+xml')]),
  },
  // ── end of the SVG limits' cases ───────────────────────────────────────────────────────────────────────────
  {
    name: 'a PNG of 10000×10000 pixels in 12 KB',
    endpoint: 'POST /api/sessions',
    category: 'decompression bomb',
    status: 422,
    send: () => create([logo('bomb.png', pngBomb())]),
  },
  {
    name: 'a JPEG whose header claims 60000×60000 pixels',
    endpoint: 'POST /api/sessions',
    category: 'decompression bomb',
    status: 422,
    send: (ctx) => create([logo('bomb.jpg', jpegClaiming(ctx.images.jpeg, 60_000, 60_000), 'image/jpeg')]),
  },
  {
    name: 'an SVG declaring a 100000×100000 canvas',
    endpoint: 'POST /api/sessions',
    category: 'decompression bomb',
    status: 422,
    send: () => create([logo('huge.svg', hugeSvg(), 'image/svg+xml')]),
  },
  {
    name: 'a gzip-compressed upload (Content-Encoding: gzip)',
    endpoint: 'POST /api/sessions',
    category: 'decompression bomb',
    status: [400, 415],
    send: (ctx) => {
      const { body, contentType } = multipart([logo('a.png', ctx.images.png)]);
      return {
        method: 'POST',
        path: '/api/sessions',
        headers: { 'Content-Type': contentType, 'Content-Encoding': 'gzip' },
        body: gzipSync(body),
      };
    },
  },
  {
    name: 'PUT on the collection',
    endpoint: 'POST /api/sessions',
    category: 'wrong method',
    status: 405,
    send: () => ({ method: 'PUT', path: '/api/sessions', headers: jsonHeaders, body: '{}' }),
  },
  {
    name: 'DELETE on the collection',
    endpoint: 'POST /api/sessions',
    category: 'wrong method',
    status: 405,
    send: () => ({ method: 'DELETE', path: '/api/sessions' }),
  },

  // ── GET /api/sessions/{id} ─────────────────────────────────────────────────────────────────────────────
  ...(
    [
      ['an id of 15 characters', 'AAAAAAAAAAAAAAA', 'malformed id'],
      ['an id of 17 characters', 'AAAAAAAAAAAAAAAAA', 'malformed id'],
      ['an id of 5000 characters', 'A'.repeat(5000), 'malformed id'],
      ['an unknown well-formed id', 'ZZZZZZZZZZZZZZZZ', 'malformed id'],
      ['an id with a NoSQL operator', '%7B%22%24ne%22%3Anull%7D', 'injection'],
      ['an id with a regular expression', '.*', 'injection'],
      ['an id with a quote and SQL', "'%20OR%201%3D1--", 'injection'],
      ['an id of emoji', '%F0%9F%98%80%F0%9F%98%80%F0%9F%98%80%F0%9F%98%80', 'unicode edge case'],
      ['an id of full-width letters', '%EF%BC%A1'.repeat(16), 'unicode edge case'],
      ['an id with an invalid UTF-8 sequence', '%C0%AFAAAAAAAAAAAAAA', 'unicode edge case'],
      ['an id with a right-to-left override', `AAAAAAAAAAAAAAA%E2%80%AE`, 'unicode edge case'],
    ] as const
  ).map(([name, id, category]): HostileCase => ({
    name,
    endpoint: 'GET /api/sessions/{id}',
    category,
    status: 404,
    send: () => ({ method: 'GET', path: `/api/sessions/${id}` }),
  })),
  {
    name: 'an id climbing out of the API (raw ../)',
    endpoint: 'GET /api/sessions/{id}',
    category: 'path traversal',
    status: 400,
    send: () => rawRequest('GET /api/sessions/../../etc/passwd HTTP/1.1\nHost: logovote\nConnection: close\n\n'),
  },
  {
    name: 'an id climbing out with percent-encoded dots and slashes',
    endpoint: 'GET /api/sessions/{id}',
    category: 'path traversal',
    status: 400,
    send: () => rawRequest('GET /api/sessions/%2e%2e%2f%2e%2e%2fadmin%2fpolls HTTP/1.1\nHost: logovote\nConnection: close\n\n'),
  },
  {
    name: 'an id climbing out with backslashes',
    endpoint: 'GET /api/sessions/{id}',
    category: 'path traversal',
    status: 400,
    send: () => rawRequest('GET /api/sessions/..%5c..%5cadmin HTTP/1.1\nHost: logovote\nConnection: close\n\n'),
  },
  {
    name: 'a NUL byte in the id',
    endpoint: 'GET /api/sessions/{id}',
    category: 'malformed id',
    status: 400,
    send: () => rawRequest('GET /api/sessions/AAAA%00AAAAAAAAAAA HTTP/1.1\nHost: logovote\nConnection: close\n\n'),
  },
  {
    name: 'DELETE on a poll without the admin',
    endpoint: 'GET /api/sessions/{id}',
    category: 'wrong method',
    status: 405,
    send: (ctx) => ({ method: 'DELETE', path: `/api/sessions/${ctx.sessionId}` }),
  },
  {
    name: 'PATCH on a poll',
    endpoint: 'GET /api/sessions/{id}',
    category: 'wrong method',
    status: 405,
    send: (ctx) => ({ method: 'PATCH', path: `/api/sessions/${ctx.sessionId}`, headers: jsonHeaders, body: json({ state: 'active' }) }),
  },
  {
    name: 'a WebDAV method (PROPFIND)',
    endpoint: 'GET /api/sessions/{id}',
    category: 'wrong method',
    status: 405,
    send: (ctx) => ({ method: 'PROPFIND', path: `/api/sessions/${ctx.sessionId}` }),
  },
  {
    name: 'TRACE (header echo)',
    endpoint: 'GET /api/sessions/{id}',
    category: 'wrong method',
    status: 405,
    send: (ctx) =>
      rawRequest(`TRACE /api/sessions/${ctx.sessionId} HTTP/1.1\nHost: logovote\nConnection: close\nCookie: ${ctx.cookie}\n\n`),
  },

  // ── PUT /api/sessions/{id}/plan ────────────────────────────────────────────────────────────────────────
  {
    name: 'a plan that does not exist',
    endpoint: 'PUT /api/sessions/{id}/plan',
    category: 'injection',
    status: 400,
    send: (ctx) => plan(ctx, json({ paymentPlan: 'enterprise' })),
  },
  {
    name: 'a plan given as a NoSQL operator',
    endpoint: 'PUT /api/sessions/{id}/plan',
    category: 'injection',
    status: 400,
    send: (ctx) => plan(ctx, json({ paymentPlan: { $ne: 'free' } })),
  },
  {
    name: 'a plan as a prototype-polluting object',
    endpoint: 'PUT /api/sessions/{id}/plan',
    category: 'injection',
    status: 400,
    send: (ctx) => plan(ctx, '{"__proto__":{"paymentPlan":"paid"},"constructor":{"prototype":{"isAdmin":true}}}'),
  },
  {
    name: 'invalid JSON',
    endpoint: 'PUT /api/sessions/{id}/plan',
    category: 'invalid JSON',
    status: 400,
    send: (ctx) => plan(ctx, '{"paymentPlan": "paid"'),
  },
  {
    name: 'JSON nested 2000 objects deep',
    endpoint: 'PUT /api/sessions/{id}/plan',
    category: 'deeply nested JSON',
    status: 400,
    send: (ctx) => plan(ctx, nestedObject(2000)),
  },
  {
    name: 'a plan sent as text/plain',
    endpoint: 'PUT /api/sessions/{id}/plan',
    category: 'wrong content type',
    status: 415,
    send: (ctx) => plan(ctx, json({ paymentPlan: 'paid' }), { 'Content-Type': 'text/plain' }),
  },
  {
    name: 'a plan without the anti-forgery token',
    endpoint: 'PUT /api/sessions/{id}/plan',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => ({
      method: 'PUT',
      path: `/api/sessions/${ctx.sessionId}/plan`,
      headers: { ...jsonHeaders, Cookie: ctx.cookie },
      body: json({ paymentPlan: 'paid' }),
    }),
  },
  {
    name: "a plan with the other poll's token",
    endpoint: 'PUT /api/sessions/{id}/plan',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => plan(ctx, json({ paymentPlan: 'paid' }), { 'X-CSRF-Token': ctx.otherToken }),
  },

  // ── GET /api/sessions/{id}/my-vote ─────────────────────────────────────────────────────────────────────
  {
    name: 'no fingerprint',
    endpoint: 'GET /api/sessions/{id}/my-vote',
    category: 'malformed fingerprint',
    status: 400,
    send: (ctx) => myVote(ctx),
  },
  ...(
    [
      ['an upper-case fingerprint', '0123456789ABCDEF', 'malformed fingerprint'],
      ['a fingerprint of 15 characters', '0123456789abcde', 'malformed fingerprint'],
      ['a fingerprint of 17 characters', '0123456789abcdef0', 'malformed fingerprint'],
      ['a fingerprint that is not hexadecimal', 'ghijklmnopqrstuv', 'malformed fingerprint'],
      ['a fingerprint with a space inside', '01234567 89abcdef', 'malformed fingerprint'],
      ['a fingerprint as a NoSQL operator', '{"$ne":null}', 'injection'],
      ['a fingerprint of 8000 characters', 'a'.repeat(8000), 'huge headers'],
    ] as const
  ).map(([name, fingerprint, category]): HostileCase => ({
    name,
    endpoint: 'GET /api/sessions/{id}/my-vote',
    category,
    status: 400,
    send: (ctx) => myVote(ctx, fingerprint),
  })),
  {
    name: 'a fingerprint of full-width digits (UTF-8 in a header)',
    endpoint: 'GET /api/sessions/{id}/my-vote',
    category: 'unicode edge case',
    status: 400,
    send: (ctx) =>
      rawRequest(
        `GET /api/sessions/${ctx.sessionId}/my-vote HTTP/1.1\nHost: logovote\nConnection: close\nX-Client-Fingerprint: ${Buffer.from('０１２３４５６７８９ａｂｃｄｅｆ', 'utf8').toString('latin1')}\n\n`,
      ),
  },
  {
    name: 'two fingerprint headers',
    endpoint: 'GET /api/sessions/{id}/my-vote',
    category: 'malformed fingerprint',
    status: 400,
    send: (ctx) => ({
      method: 'GET',
      path: `/api/sessions/${ctx.sessionId}/my-vote`,
      headers: { 'X-Client-Fingerprint': ['0123456789abcdef', 'fedcba9876543210'] },
    }),
  },
  {
    name: 'a fingerprint header of 12 KB (over the gateway limit)',
    endpoint: 'GET /api/sessions/{id}/my-vote',
    category: 'huge headers',
    status: 431,
    send: (ctx) => myVote(ctx, 'a'.repeat(12_000)),
  },
  {
    name: 'my-vote of a malformed poll id',
    endpoint: 'GET /api/sessions/{id}/my-vote',
    category: 'malformed id',
    status: 404,
    send: (ctx) => ({ method: 'GET', path: '/api/sessions/not-a-poll/my-vote', headers: { 'X-Client-Fingerprint': ctx.fingerprint } }),
  },
  {
    name: 'POST to my-vote',
    endpoint: 'GET /api/sessions/{id}/my-vote',
    category: 'wrong method',
    status: 405,
    send: (ctx) => ({
      method: 'POST',
      path: `/api/sessions/${ctx.sessionId}/my-vote`,
      headers: { 'X-Client-Fingerprint': ctx.fingerprint },
    }),
  },

  // ── POST /api/sessions/{id}/vote ───────────────────────────────────────────────────────────────────────
  {
    name: 'a vote without token or cookie',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => ({
      method: 'POST',
      path: `/api/sessions/${ctx.sessionId}/vote`,
      headers: { ...jsonHeaders, 'X-Client-Fingerprint': ctx.fingerprint },
      body: json({ logoId: ctx.logoIds[0] }),
    }),
  },
  {
    name: 'a vote with a token but no cookie',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => ({
      method: 'POST',
      path: `/api/sessions/${ctx.sessionId}/vote`,
      headers: { ...jsonHeaders, 'X-CSRF-Token': ctx.token, 'X-Client-Fingerprint': ctx.fingerprint },
      body: json({ logoId: ctx.logoIds[0] }),
    }),
  },
  {
    name: 'a vote with a forged token',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0] }), { 'X-CSRF-Token': 'A'.repeat(43) }),
  },
  {
    name: "a vote with the other poll's token",
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0] }), { 'X-CSRF-Token': ctx.otherToken }),
  },
  {
    name: 'a vote whose cookie is not the one the token was made for',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0] }), { Cookie: `lv_csrf=${'B'.repeat(24)}` }),
  },
  {
    name: 'a vote with a malformed anti-forgery cookie',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0] }), { Cookie: 'lv_csrf=%00%FF;lv_csrf=../../' }),
  },
  {
    name: 'a vote with a token of 6000 characters',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0] }), { 'X-CSRF-Token': 'x'.repeat(6000) }),
  },
  {
    name: 'a vote with a token of non-ASCII characters',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'unicode edge case',
    status: 403,
    send: (ctx) =>
      rawRequest(
        `POST /api/sessions/${ctx.sessionId}/vote HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: application/json\nCookie: ${ctx.cookie}\nX-Client-Fingerprint: ${ctx.fingerprint}\nX-CSRF-Token: ${Buffer.from('ŧøķëñ-✓', 'utf8').toString('latin1')}\nContent-Length: 2\n\n`,
        '{}',
      ),
  },
  {
    name: 'a vote for a logo given as a NoSQL operator',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'injection',
    status: 400,
    send: (ctx) => vote(ctx, json({ logoId: { $ne: null } })),
  },
  {
    name: 'a vote for a logo of another poll',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'malformed id',
    status: 400,
    send: (ctx) => vote(ctx, json({ logoId: 'someone-elses-logo' })),
  },
  {
    name: 'a vote with an empty logoId',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'malformed id',
    status: 400,
    send: (ctx) => vote(ctx, json({ logoId: '' })),
  },
  {
    name: 'a vote through a channel of no poll',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'malformed id',
    status: 400,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0], via: 'nochanel' })),
  },
  {
    name: 'a vote with a via of 10 KB',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'malformed id',
    status: 400,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0], via: 'x'.repeat(10_000) })),
  },
  {
    name: 'a vote with a logoId of 10 KB',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'malformed id',
    status: 400,
    send: (ctx) => vote(ctx, json({ logoId: 'x'.repeat(10_000) })),
  },
  {
    name: 'a vote with a lone surrogate as logoId',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'unicode edge case',
    status: 400,
    send: (ctx) => vote(ctx, '{"logoId":"\\ud800"}'),
  },
  {
    name: 'a vote body of invalid UTF-8',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'unicode edge case',
    status: 400,
    send: (ctx) => vote(ctx, Buffer.from([0x7b, 0x22, 0x6c, 0x6f, 0x67, 0x6f, 0x49, 0x64, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d])),
  },
  {
    name: 'a vote body in UTF-16 with its byte-order mark',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'unicode edge case',
    status: 400,
    send: (ctx) => vote(ctx, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json({ logoId: ctx.logoIds[0] }), 'utf16le')])),
  },
  {
    name: 'a vote with invalid JSON',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'invalid JSON',
    status: 400,
    send: (ctx) => vote(ctx, "{logoId: 'a'}"),
  },
  {
    name: 'a vote whose JSON is a bare string',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'invalid JSON',
    status: 400,
    send: (ctx) => vote(ctx, '"logo"'),
  },
  {
    name: 'a vote whose JSON is an array',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'invalid JSON',
    status: 400,
    send: (ctx) => vote(ctx, json([{ logoId: ctx.logoIds[0] }])),
  },
  {
    name: 'a vote nested 7000 arrays deep',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'deeply nested JSON',
    status: 400,
    send: (ctx) => vote(ctx, `{"logoId":${nested(7000)}}`),
  },
  {
    name: 'a vote sent as text/plain',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'wrong content type',
    status: 415,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0] }), { 'Content-Type': 'text/plain' }),
  },
  {
    name: 'a vote sent as multipart',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'wrong content type',
    status: 415,
    send: (ctx) => {
      const { body, contentType } = multipart([{ name: 'logoId', data: ctx.logoIds[0]! }]);
      return vote(ctx, body, { 'Content-Type': contentType });
    },
  },
  {
    name: 'a vote in UTF-16 declared as such (JSON must be UTF-8)',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'wrong content type',
    send: (ctx) =>
      vote(ctx, Buffer.from(json({ logoId: ctx.logoIds[0] }), 'utf16le'), { 'Content-Type': 'application/json; charset=utf-16le' }),
  },
  {
    name: 'a vote of 20 KB',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'huge body',
    status: 413,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0], padding: 'x'.repeat(20_000) })),
  },
  {
    name: 'a vote of 200 KB (over the gateway limit)',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'huge body',
    status: 413,
    send: (ctx) => vote(ctx, json({ logoId: ctx.logoIds[0], padding: 'x'.repeat(200_000) })),
  },
  {
    name: 'a chunked vote of 100 KB with no declared length',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'huge body',
    status: 413,
    send: (ctx) => {
      const chunk = 'x'.repeat(10_000);
      const chunks = Array.from({ length: 10 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
      return rawRequest(
        `POST /api/sessions/${ctx.sessionId}/vote HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: application/json\nCookie: ${ctx.cookie}\nX-CSRF-Token: ${ctx.token}\nX-Client-Fingerprint: ${ctx.fingerprint}\nTransfer-Encoding: chunked\n\n`,
        `${chunks}0\r\n\r\n`,
      );
    },
  },
  {
    name: 'a gzip bomb as the vote body (10 MB inflated from 10 KB)',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'decompression bomb',
    send: (ctx) => vote(ctx, gzipBomb(), { 'Content-Encoding': 'gzip' }),
  },
  {
    name: 'a vote with both Content-Length and Transfer-Encoding (request smuggling)',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'malformed HTTP',
    status: 400,
    send: (ctx) =>
      rawRequest(
        `POST /api/sessions/${ctx.sessionId}/vote HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: application/json\nContent-Length: 4\nTransfer-Encoding: chunked\n\n`,
        '0\r\n\r\nGET /api/admin/polls HTTP/1.1\r\nHost: logovote\r\n\r\n',
      ),
  },
  {
    name: 'a vote with two different Content-Length headers',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'malformed HTTP',
    status: 400,
    send: (ctx) =>
      rawRequest(
        `POST /api/sessions/${ctx.sessionId}/vote HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: application/json\nContent-Length: 2\nContent-Length: 20\n\n`,
        '{}',
      ),
  },
  {
    name: 'GET on vote',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'wrong method',
    status: 405,
    send: (ctx) => ({ method: 'GET', path: `/api/sessions/${ctx.sessionId}/vote` }),
  },
  {
    name: 'a vote on a malformed poll id',
    endpoint: 'POST /api/sessions/{id}/vote',
    category: 'malformed id',
    status: 403,
    send: (ctx) => ({ ...vote(ctx, json({ logoId: ctx.logoIds[0] })), path: '/api/sessions/%24where/vote' }),
  },

  // ── POST /api/sessions/{id}/notify ─────────────────────────────────────────────────────────────────────
  {
    name: 'notify without the anti-forgery token',
    endpoint: 'POST /api/sessions/{id}/notify',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => ({
      method: 'POST',
      path: `/api/sessions/${ctx.sessionId}/notify`,
      headers: jsonHeaders,
      body: json({ email: 'victim@example.com' }),
    }),
  },
  {
    name: "notify with the other poll's token",
    endpoint: 'POST /api/sessions/{id}/notify',
    category: 'anti-forgery token',
    status: 403,
    send: (ctx) => notify(ctx, json({ email: 'victim@example.com' }), { 'X-CSRF-Token': ctx.otherToken }),
  },
  ...(
    [
      ['two addresses', 'a@example.com, b@example.com', 'injection'],
      ['an address with a header injection', 'a@example.com\r\nBcc: everyone@example.com', 'injection'],
      ['an address that is HTML', '<script>alert(1)</script>@example.com', 'injection'],
      ['an address of 300 characters', `${'a'.repeat(290)}@example.com`, 'huge body'],
      ['an address of only spaces', '     ', 'malformed id'],
    ] as const
  ).map(([name, email, category]): HostileCase => ({
    name: `notify ${name}`,
    endpoint: 'POST /api/sessions/{id}/notify',
    category,
    status: 400,
    send: (ctx) => notify(ctx, json({ email })),
  })),
  {
    name: 'notify with the address as a NoSQL operator',
    endpoint: 'POST /api/sessions/{id}/notify',
    category: 'injection',
    status: 400,
    send: (ctx) => notify(ctx, json({ email: { $gt: '' } })),
  },
  {
    name: 'notify with invalid JSON',
    endpoint: 'POST /api/sessions/{id}/notify',
    category: 'invalid JSON',
    status: 400,
    send: (ctx) => notify(ctx, '{"email":'),
  },
  {
    name: 'notify nested 2500 objects deep',
    endpoint: 'POST /api/sessions/{id}/notify',
    category: 'deeply nested JSON',
    status: 400,
    send: (ctx) => notify(ctx, `{"email":${nestedObject(2500)}}`),
  },
  {
    name: 'notify sent as a form',
    endpoint: 'POST /api/sessions/{id}/notify',
    category: 'wrong content type',
    status: 415,
    send: (ctx) => notify(ctx, 'email=a%40example.com', { 'Content-Type': 'application/x-www-form-urlencoded' }),
  },
  {
    name: 'GET on notify',
    endpoint: 'POST /api/sessions/{id}/notify',
    category: 'wrong method',
    status: 405,
    send: (ctx) => ({ method: 'GET', path: `/api/sessions/${ctx.sessionId}/notify` }),
  },

  // ── GET|HEAD /api/logos/{filename} ─────────────────────────────────────────────────────────────────────
  ...(
    [
      ['a name that is not a logo name', 'logo.png', 'malformed id'],
      ['an unknown well-formed name', `${'A'.repeat(22)}.png`, 'malformed id'],
      ['an upper-case extension', `${'A'.repeat(22)}.PNG`, 'malformed id'],
      ['an extension that is not an image', `${'A'.repeat(22)}.html`, 'malformed id'],
      ['a double extension', `${'A'.repeat(22)}.svg.html`, 'malformed id'],
      ['a name of 4000 characters', `${'A'.repeat(4000)}.png`, 'malformed id'],
      ['a name of emoji', `${'%F0%9F%96%BC'.repeat(22)}.png`, 'unicode edge case'],
      ['a name with an encoded slash', `a%2Fb${'A'.repeat(18)}.png`, 'path traversal'],
    ] as const
  ).map(([name, filename, category]): HostileCase => ({
    name: `a logo with ${name}`,
    endpoint: 'GET|HEAD /api/logos/{filename}',
    category,
    status: 404,
    send: () => ({ method: 'GET', path: `/api/logos/${filename}` }),
  })),
  {
    name: 'a logo path climbing to /etc/passwd',
    endpoint: 'GET|HEAD /api/logos/{filename}',
    category: 'path traversal',
    status: 400,
    send: () => rawRequest('GET /api/logos/../../../../etc/passwd HTTP/1.1\nHost: logovote\nConnection: close\n\n'),
  },
  {
    name: 'a logo path climbing with double-encoded dots',
    endpoint: 'GET|HEAD /api/logos/{filename}',
    category: 'path traversal',
    status: 400,
    send: () => rawRequest('GET /api/logos/%2E%2E%2F%2E%2E%2Fsecrets.json HTTP/1.1\nHost: logovote\nConnection: close\n\n'),
  },
  {
    name: 'a logo path into another bucket',
    endpoint: 'GET|HEAD /api/logos/{filename}',
    category: 'path traversal',
    status: 404,
    send: () => ({ method: 'GET', path: '/api/logos/other-bucket%2Fsecret.png' }),
  },
  {
    name: 'PUT of a logo',
    endpoint: 'GET|HEAD /api/logos/{filename}',
    category: 'wrong method',
    status: 405,
    send: (ctx) => ({ method: 'PUT', path: `/api/logos/${ctx.filename}`, headers: { 'Content-Type': 'image/png' }, body: ctx.images.png }),
  },
  {
    name: 'DELETE of a logo',
    endpoint: 'GET|HEAD /api/logos/{filename}',
    category: 'wrong method',
    status: 405,
    send: (ctx) => ({ method: 'DELETE', path: `/api/logos/${ctx.filename}` }),
  },

  // ── POST /api/test/moderate ────────────────────────────────────────────────────────────────────────────
  {
    name: 'moderation without an image',
    endpoint: 'POST /api/test/moderate',
    category: 'malformed multipart',
    status: 400,
    send: () => moderate([]),
  },
  {
    name: 'moderation of two images at once',
    endpoint: 'POST /api/test/moderate',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) =>
      moderate([
        { name: 'image', filename: 'a.png', type: 'image/png', data: ctx.images.png },
        { name: 'image', filename: 'b.png', type: 'image/png', data: ctx.images.png },
      ]),
  },
  {
    name: 'moderation with a text field',
    endpoint: 'POST /api/test/moderate',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) =>
      moderate([
        { name: 'note', data: 'hi' },
        { name: 'image', filename: 'a.png', type: 'image/png', data: ctx.images.png },
      ]),
  },
  {
    name: 'moderation of a file under the logos field',
    endpoint: 'POST /api/test/moderate',
    category: 'malformed multipart',
    status: 400,
    send: (ctx) => moderate([{ name: 'logos', filename: 'a.png', type: 'image/png', data: ctx.images.png }]),
  },
  {
    name: 'moderation of a JSON body',
    endpoint: 'POST /api/test/moderate',
    category: 'wrong content type',
    status: 415,
    send: () => ({ method: 'POST', path: '/api/test/moderate', headers: jsonHeaders, body: json({ image: 'data:image/png;base64,AAAA' }) }),
  },
  {
    name: 'moderation of an image of 2 MB and one byte',
    endpoint: 'POST /api/test/moderate',
    category: 'huge body',
    status: 413,
    send: (ctx) => {
      const big = Buffer.alloc(2 * 1024 * 1024 + 1);
      ctx.images.png.copy(big);
      return moderate([{ name: 'image', filename: 'big.png', type: 'image/png', data: big }]);
    },
  },
  {
    name: 'moderation of a declared 4 MB body (over the gateway cap)',
    endpoint: 'POST /api/test/moderate',
    category: 'huge body',
    status: 413,
    send: () => ({
      ...rawRequest(
        'POST /api/test/moderate HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: multipart/form-data; boundary=x\nContent-Length: 4194304\n\n',
      ),
      endAfterWrite: true,
    }),
  },
  {
    name: 'moderation of a multipart body cut off mid-file',
    endpoint: 'POST /api/test/moderate',
    category: 'truncated multipart',
    status: 400,
    send: () => {
      const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n`;
      return rawRequest(
        `POST /api/test/moderate HTTP/1.1\nHost: logovote\nConnection: close\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\nContent-Length: ${Buffer.byteLength(body, 'latin1')}\n\n`,
        body,
      );
    },
  },
  {
    name: 'GET on the moderation test',
    endpoint: 'POST /api/test/moderate',
    category: 'wrong method',
    status: [404, 405],
    send: () => ({ method: 'GET', path: '/api/test/moderate' }),
  },

  // ── /api/admin/polls ───────────────────────────────────────────────────────────────────────────────────
  {
    name: 'the poll list without credentials',
    endpoint: 'GET|DELETE /api/admin/polls',
    category: 'missing credentials',
    status: 401,
    send: () => ({ method: 'GET', path: '/api/admin/polls' }),
  },
  {
    name: 'the poll list with a wrong password',
    endpoint: 'GET|DELETE /api/admin/polls',
    category: 'missing credentials',
    status: 401,
    send: () => ({
      method: 'GET',
      path: '/api/admin/polls',
      headers: { Authorization: `Basic ${Buffer.from('admin:guess').toString('base64')}` },
    }),
  },
  {
    name: 'the poll list with a bearer token',
    endpoint: 'GET|DELETE /api/admin/polls',
    category: 'missing credentials',
    status: 401,
    send: () => ({
      method: 'GET',
      path: '/api/admin/polls',
      headers: { Authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJhZG1pbiI6dHJ1ZX0.' },
    }),
  },
  {
    name: 'the poll list with undecodable basic credentials',
    endpoint: 'GET|DELETE /api/admin/polls',
    category: 'missing credentials',
    status: 401,
    send: () => ({ method: 'GET', path: '/api/admin/polls', headers: { Authorization: 'Basic !!!not-base64!!!' } }),
  },
  {
    name: 'a poll deleted without credentials',
    endpoint: 'GET|DELETE /api/admin/polls',
    category: 'missing credentials',
    status: 401,
    send: (ctx) => ({ method: 'DELETE', path: `/api/admin/polls/${ctx.sessionId}` }),
  },
  {
    name: 'the admin API reached by climbing from the sessions API',
    endpoint: 'GET|DELETE /api/admin/polls',
    category: 'path traversal',
    status: 400,
    send: () => rawRequest('GET /api/sessions/..%2F..%2Fapi%2Fadmin%2Fpolls HTTP/1.1\nHost: logovote\nConnection: close\n\n'),
  },
  {
    name: 'a delete (as admin) of a malformed poll id',
    endpoint: 'GET|DELETE /api/admin/polls',
    category: 'malformed id',
    status: 404,
    send: (ctx) => ({
      method: 'DELETE',
      path: '/api/admin/polls/%7B%22%24ne%22%3A1%7D',
      headers: { Authorization: ctx.adminAuthorization },
    }),
  },
  {
    name: 'a delete (as admin) of an unknown poll',
    endpoint: 'GET|DELETE /api/admin/polls',
    category: 'malformed id',
    status: 404,
    send: (ctx) => ({ method: 'DELETE', path: '/api/admin/polls/ZZZZZZZZZZZZZZZZ', headers: { Authorization: ctx.adminAuthorization } }),
  },
  {
    name: 'POST (as admin) on the poll list',
    endpoint: 'GET|DELETE /api/admin/polls',
    category: 'wrong method',
    status: 405,
    send: (ctx) => ({
      method: 'POST',
      path: '/api/admin/polls',
      headers: { Authorization: ctx.adminAuthorization, ...jsonHeaders },
      body: '{}',
    }),
  },

  // ── /test/fingerprint/* ────────────────────────────────────────────────────────────────────────────────
  {
    name: 'a test vote without a fingerprint',
    endpoint: '/test/fingerprint/*',
    category: 'malformed fingerprint',
    status: 400,
    send: () => testVote(json({ testData: {} }), {}),
  },
  {
    name: 'a test vote with a malformed fingerprint',
    endpoint: '/test/fingerprint/*',
    category: 'malformed fingerprint',
    status: 400,
    send: () => testVote(json({ testData: {} }), { 'X-Client-Fingerprint': 'not-a-fingerprint' }),
  },
  {
    name: 'a test vote with invalid JSON',
    endpoint: '/test/fingerprint/*',
    category: 'invalid JSON',
    status: 400,
    send: (ctx) => testVote('{"testData": [1, 2,', { 'X-Client-Fingerprint': ctx.fingerprint }),
  },
  {
    name: 'a test vote whose data is nested 7000 arrays deep',
    endpoint: '/test/fingerprint/*',
    category: 'deeply nested JSON',
    status: 400,
    send: (ctx) => testVote(`{"testData":${nested(7000)}}`, { 'X-Client-Fingerprint': ctx.fingerprint }),
  },
  {
    name: 'a test vote of 30 KB',
    endpoint: '/test/fingerprint/*',
    category: 'huge body',
    status: 413,
    send: (ctx) => testVote(json({ testData: 'x'.repeat(30_000) }), { 'X-Client-Fingerprint': ctx.fingerprint }),
  },
  {
    name: 'a test vote sent as text/plain',
    endpoint: '/test/fingerprint/*',
    category: 'wrong content type',
    status: 415,
    send: (ctx) => testVote('hello', { 'X-Client-Fingerprint': ctx.fingerprint, 'Content-Type': 'text/plain' }),
  },
  {
    name: 'DELETE on the test votes',
    endpoint: '/test/fingerprint/*',
    category: 'wrong method',
    status: 405,
    send: () => ({ method: 'DELETE', path: '/test/fingerprint/votes' }),
  },
  {
    name: 'GET on the test session maker',
    endpoint: '/test/fingerprint/*',
    category: 'wrong method',
    status: 405,
    send: () => ({ method: 'GET', path: '/test/fingerprint/session' }),
  },

  // ── POST /api/analytics/events ─────────────────────────────────────────────────────────────────────────
  {
    name: 'an analytics batch with an unknown event',
    endpoint: 'POST /api/analytics/events',
    category: 'injection',
    status: 400,
    send: () => ({
      method: 'POST',
      path: '/api/analytics/events',
      headers: jsonHeaders,
      body: json({ events: [{ ...event, name: 'admin_login' }] }),
    }),
  },
  {
    name: 'an analytics batch of 51 events',
    endpoint: 'POST /api/analytics/events',
    category: 'huge body',
    status: 400,
    send: () => ({
      method: 'POST',
      path: '/api/analytics/events',
      headers: jsonHeaders,
      body: json({ events: Array.from({ length: 51 }, () => event) }),
    }),
  },
  {
    name: 'an analytics event with a path of 1000 characters',
    endpoint: 'POST /api/analytics/events',
    category: 'huge body',
    status: 400,
    send: () => ({
      method: 'POST',
      path: '/api/analytics/events',
      headers: jsonHeaders,
      body: json({ events: [{ ...event, path: `/${'a'.repeat(999)}` }] }),
    }),
  },
  {
    name: 'an analytics batch nested 5000 arrays deep',
    endpoint: 'POST /api/analytics/events',
    category: 'deeply nested JSON',
    status: 400,
    send: () => ({ method: 'POST', path: '/api/analytics/events', headers: jsonHeaders, body: `{"events":${nested(5000)}}` }),
  },
  {
    name: 'an analytics batch with an operator as the session id',
    endpoint: 'POST /api/analytics/events',
    category: 'injection',
    status: 400,
    send: () => ({
      method: 'POST',
      path: '/api/analytics/events',
      headers: jsonHeaders,
      body: json({ events: [{ ...event, session_id: { $ne: null } }] }),
    }),
  },
  {
    name: 'an analytics batch sent as text/plain',
    endpoint: 'POST /api/analytics/events',
    category: 'wrong content type',
    status: 415,
    send: () => ({
      method: 'POST',
      path: '/api/analytics/events',
      headers: { 'Content-Type': 'text/plain' },
      body: json({ events: [event] }),
    }),
  },

  // ── Every free-text field of every endpoint ───────────────────────────────────────────────────────────
  ...TEXT_FIELDS.flatMap(({ field, endpoint, multiline, send }) =>
    (multiline ? FORBIDDEN_TEXTS : FORBIDDEN_IN_A_LINE).map(([what, text]): HostileCase => ({
      name: `${field} with ${what}`,
      endpoint,
      category: 'unicode edge case',
      status: 400,
      send: (ctx) => send(ctx, text),
    })),
  ),

  // ── Anything else under /api, and requests that are not HTTP ──────────────────────────────────────────
  {
    name: 'an unknown API path',
    endpoint: 'other /api paths',
    category: 'malformed id',
    status: 404,
    send: () => ({ method: 'GET', path: '/api/v2/sessions' }),
  },
  {
    name: 'an unknown API path ending in .png',
    endpoint: 'other /api paths',
    category: 'malformed id',
    status: 404,
    send: () => ({ method: 'GET', path: '/api/config.png' }),
  },
  {
    name: 'a health check of a service that does not exist',
    endpoint: 'other /api paths',
    category: 'malformed id',
    status: 404,
    send: () => ({ method: 'GET', path: '/api/health/database' }),
  },
  {
    name: 'a request line that is not HTTP',
    endpoint: 'other /api paths',
    category: 'malformed HTTP',
    status: 400,
    send: () => rawRequest('HELLO THERE\n\n'),
  },
  {
    name: 'a request line with an extra word',
    endpoint: 'other /api paths',
    category: 'malformed HTTP',
    status: 400,
    send: () => rawRequest('GET /api/sessions HTTP/1.1 please\nHost: logovote\n\n'),
  },
  {
    name: 'an HTTP/1.1 request without Host',
    endpoint: 'other /api paths',
    category: 'malformed HTTP',
    status: 400,
    send: () => rawRequest('GET /api/health/sessions HTTP/1.1\nConnection: close\n\n'),
  },
  {
    name: 'a header line without a colon',
    endpoint: 'other /api paths',
    category: 'malformed HTTP',
    status: 400,
    send: () => rawRequest('GET /api/health/sessions HTTP/1.1\nHost: logovote\nthis line is no header\nConnection: close\n\n'),
  },
  {
    name: 'an unknown HTTP version',
    endpoint: 'other /api paths',
    category: 'malformed HTTP',
    send: () => rawRequest('GET /api/health/sessions HTTP/7.0\nHost: logovote\nConnection: close\n\n'),
  },
  {
    name: 'a URL of 10 KB',
    endpoint: 'other /api paths',
    category: 'huge headers',
    status: 414,
    send: () => rawRequest(`GET /api/sessions/${'A'.repeat(10_000)} HTTP/1.1\nHost: logovote\nConnection: close\n\n`),
  },
  {
    name: 'a cookie of 20 KB',
    endpoint: 'other /api paths',
    category: 'huge headers',
    status: 431,
    send: (ctx) => ({
      method: 'GET',
      path: `/api/sessions/${ctx.sessionId}`,
      headers: { Cookie: Array.from({ length: 2000 }, (_, i) => `c${i}=xxxxxx`).join('; ') },
    }),
  },
  {
    name: '60 headers of 400 bytes (24 KB, within the gateway, over the service limit)',
    endpoint: 'other /api paths',
    category: 'huge headers',
    status: 431,
    send: (ctx) => ({
      method: 'GET',
      path: `/api/sessions/${ctx.sessionId}`,
      headers: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`X-Padding-${i}`, 'p'.repeat(400)])),
    }),
  },
  {
    name: 'a header name with non-ASCII bytes',
    endpoint: 'other /api paths',
    category: 'unicode edge case',
    send: (ctx) =>
      rawRequest(`GET /api/sessions/${ctx.sessionId}/my-vote HTTP/1.1\nHost: logovote\nConnection: close\nX-Fïngerprint\xff: 1\n\n`),
  },
];
