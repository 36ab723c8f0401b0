/**
 * HTTP clients for hostile requests: one over node:http for well-formed requests (any method, header and body,
 * from a chosen loopback address so the gateway's per-address rate limit counts these tests alone), and one over
 * a raw socket for bytes no HTTP client would send (malformed request lines, truncated or contradictory bodies).
 */
import { request } from 'node:http';
import { connect } from 'node:net';

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Target {
  host: string;
  port: number;
  /** The client address the gateway sees (any 127.x.y.z works on Linux). */
  localAddress: string;
}

export function targetOf(baseUrl: string, localAddress: string): Target {
  const url = new URL(baseUrl);
  return { host: '127.0.0.1', port: Number(url.port), localAddress };
}

export interface HttpCall {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

const flatten = (headers: Record<string, string | string[] | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));

/** A request as given (no automatic headers beyond Host and the body's length), answered in full. */
export function call(target: Target, req: HttpCall, timeoutMs = 30_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.host,
        port: target.port,
        localAddress: target.localAddress,
        method: req.method,
        path: req.path,
        headers: { Connection: 'close', ...req.headers },
        agent: false,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: flatten(res.headers), body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${req.method} ${req.path}: no answer within ${timeoutMs} ms`)));
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

function decodeChunked(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/** Parses the first HTTP/1.x answer in what the server wrote. */
export function parseAnswer(raw: Buffer): Answer {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error(`no complete HTTP answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine = '', ...lines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`not an HTTP answer: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] = headers[name] ? `${headers[name]}, ${line.slice(colon + 1).trim()}` : line.slice(colon + 1).trim();
  }
  let body = raw.subarray(headEnd + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = decodeChunked(body);
  else if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
  return { status: Number(status[1]), headers, body: body.toString('utf8') };
}

export interface RawOptions {
  /** Half-close the connection after writing (the client sends nothing more, e.g. a body cut short). */
  endAfterWrite?: boolean;
  timeoutMs?: number;
}

/** Writes bytes to the server as they are and parses what comes back before the server closes (or the timeout). */
export function callRaw(target: Target, bytes: string | Buffer, options: RawOptions = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: target.host, port: target.port, localAddress: target.localAddress }, () => {
      socket.write(bytes);
      if (options.endAfterWrite) socket.end();
    });
    const finish = () => {
      clearTimeout(timer);
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (error: unknown) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    // The answer is complete once the server closes; a server keeping the connection open is cut off here.
    const timer = setTimeout(() => socket.destroy(), options.timeoutMs ?? 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', finish);
    socket.on('error', () => undefined);
  });
}

/** The `message` of a JSON error body, or undefined when the body is not one. */
export function jsonMessage(answer: Answer): string | undefined {
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) return undefined;
  try {
    const body = JSON.parse(answer.body) as { message?: unknown };
    return typeof body.message === 'string' && body.message.length > 0 ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/** What a client must never see in an error: stack frames, file paths, internal addresses, driver errors. */
export const INTERNAL_DETAILS =
  /\bat [\w.<>]+ \(|node_modules|\/work\/|\/home\/|\/usr\/|\.ts:\d+|\.js:\d+|ECONN|ENOTFOUND|EAI_AGAIN|127\.0\.0\.1|localhost:\d+|mongo(db|ose|server)|minio|ferret|stack/i;

export interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: string | Buffer;
}

/** A multipart/form-data body as a browser would send it (repeated names allowed). */
export function multipart(parts: Part[], boundary = '----logovote-hostile-7f3a'): { body: Buffer; contentType: string } {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.type ? `\r\nContent-Type: ${part.type}` : '';
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`, 'utf8'));
    pieces.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'));
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}
