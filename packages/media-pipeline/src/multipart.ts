import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context, Middleware } from 'koa';
import { plainText } from '@logovote/contracts';
import { HttpError, watchUploadRate, type UploadRateLimits } from '@logovote/service-kit';

/** A received file, streamed to a temporary file that is removed when the request ends. */
export interface UploadedFile {
  /** The browser's file name, reduced to a plain name; shown back to people, never used as a path. */
  originalName: string;
  /** What the browser claimed; informational only, the pipeline reads the bytes. */
  declaredType: string;
  path: string;
  size: number;
}

export interface ReceivedUpload {
  files: UploadedFile[];
  fields: Record<string, string>;
  /** The values of each repeated text field, in the order sent (absent when not sent). */
  repeatedFields: Record<string, string[]>;
}

export interface MultipartOptions {
  fileField: string;
  maxFiles: number;
  maxFileBytes: number;
  /** Text fields accepted once each; any other field is refused. */
  textFields: readonly string[];
  /** Text fields that may be sent several times each, with how many times at most (such as a name per file). */
  repeatedTextFields?: Readonly<Record<string, number>>;
  maxFieldBytes: number;
  tooManyFilesMessage: string;
  /** A body arriving slower than these is refused with a 408 and its connection closed. */
  uploadRate: UploadRateLimits;
}

/** Headers and boundaries of a multipart body, on top of its files. */
const MULTIPART_OVERHEAD_BYTES = 256 * 1024;
/** What is read and thrown away after a refusal, so the client can read the answer; beyond it the connection is cut. */
const MAX_DISCARDED_BYTES = 16 * 1024 * 1024;
const MAX_NAME_LENGTH = 255;
const UPLOAD_STATE = 'upload';

/** File names are shown to people (the admin area, results, messages): the rules of every text field hold. */
const FILE_NAME = plainText('The file name');

/** The name without any folders, at most MAX_NAME_LENGTH characters (never half a character). */
function plainName(filename: string): string {
  const name = [...basename(filename.replace(/\\/g, '/')).trim()].slice(0, MAX_NAME_LENGTH).join('');
  return name || 'unnamed';
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** Reads the rest of a refused request without keeping it, so the response reaches the client. */
function discardRest(req: IncomingMessage): void {
  let discarded = 0;
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > MAX_DISCARDED_BYTES) req.destroy();
  });
  req.resume();
}

function receive(req: IncomingMessage, dir: string, options: MultipartOptions): Promise<ReceivedUpload> {
  return new Promise((resolve, reject) => {
    const repeatedTextFields = options.repeatedTextFields ?? {};
    const textFieldCount = options.textFields.length + Object.values(repeatedTextFields).reduce((sum, times) => sum + times, 0);
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        limits: {
          files: options.maxFiles,
          fileSize: options.maxFileBytes,
          fields: textFieldCount + 4,
          fieldSize: options.maxFieldBytes,
          parts: options.maxFiles + textFieldCount + 8,
          headerPairs: 16,
        },
      });
    } catch {
      reject(new HttpError(400, 'Malformed multipart body: the boundary is missing'));
      return;
    }
    const files: UploadedFile[] = [];
    const fields: Record<string, string> = {};
    const repeatedFields: Record<string, string[]> = {};
    const streams: WriteStream[] = [];
    const writes: Promise<void>[] = [];
    /** Set once the outcome is decided: a refusal, or every file written. */
    let settled = false;
    // The answer closes the connection: the rest of a trickling body is not waited for.
    const stopRateWatch = watchUploadRate(req, options.uploadRate, (message) => fail(new HttpError(408, message, { Connection: 'close' })));

    const fail = (error: HttpError) => {
      if (settled) return;
      settled = true;
      stopRateWatch();
      req.unpipe(parser);
      discardRest(req);
      for (const stream of streams) stream.destroy();
      // Every temporary file is closed before the caller removes the folder.
      void Promise.allSettled(writes).then(() => reject(error));
    };

    parser.on('file', (name, stream, info) => {
      if (settled) {
        stream.resume();
        return;
      }
      if (name !== options.fileField) {
        stream.resume();
        fail(new HttpError(400, `Unexpected file field "${name}": send files as "${options.fileField}"`));
        return;
      }
      // A file input left empty still sends a part: no name, no bytes. It is not a file.
      if (!info.filename) {
        stream.resume();
        return;
      }
      const checkedName = FILE_NAME.safeParse(info.filename);
      if (!checkedName.success) {
        stream.resume();
        fail(new HttpError(400, `${name} (file ${files.length + 1}): ${checkedName.error.issues[0]?.message}`));
        return;
      }
      const file: UploadedFile = {
        originalName: plainName(checkedName.data),
        declaredType: info.mimeType,
        path: join(dir, String(files.length)),
        size: 0,
      };
      files.push(file);
      stream.on('data', (chunk: Buffer) => (file.size += chunk.length));
      stream.on('limit', () => fail(new HttpError(413, `"${file.originalName}" is larger than ${megabytes(options.maxFileBytes)}`)));
      const out = createWriteStream(file.path, { flags: 'wx' });
      streams.push(out);
      const write = pipeline(stream, out);
      // Observed at once so an early disk error is not an unhandled rejection; close/fail read the outcome.
      write.catch(() => undefined);
      writes.push(write);
    });
    parser.on('field', (name, value, info) => {
      if (settled) return;
      const maxRepeats = Object.hasOwn(repeatedTextFields, name) ? repeatedTextFields[name] : undefined;
      if (maxRepeats !== undefined) {
        const values = (repeatedFields[name] ??= []);
        if (info.valueTruncated) fail(new HttpError(413, `"${name}" is too long`));
        else if (values.length === maxRepeats) fail(new HttpError(400, `"${name}" was sent more than ${maxRepeats} times`));
        else values.push(value);
      } else if (!options.textFields.includes(name)) fail(new HttpError(400, `Unexpected field "${name}"`));
      else if (info.valueTruncated) fail(new HttpError(413, `"${name}" is too long`));
      else if (Object.hasOwn(fields, name)) fail(new HttpError(400, `"${name}" was sent more than once`));
      else fields[name] = value;
    });
    parser.on('filesLimit', () => fail(new HttpError(400, options.tooManyFilesMessage)));
    parser.on('fieldsLimit', () => fail(new HttpError(400, 'Too many form fields')));
    parser.on('partsLimit', () => fail(new HttpError(400, 'Too many form parts')));
    parser.on('error', () => fail(new HttpError(400, 'Malformed multipart body')));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      stopRateWatch();
      Promise.all(writes).then(() => resolve({ files, fields, repeatedFields }), reject);
    });
    req.on('error', () => fail(new HttpError(400, 'The upload was interrupted')));
    req.on('close', () => {
      if (!req.complete) fail(new HttpError(400, 'The upload was interrupted'));
    });
    req.pipe(parser);
  });
}

/**
 * Receives a multipart/form-data body with limits, streaming each file to a temporary file (never the
 * whole body into memory): at most `maxFiles` files of `maxFileBytes` each (413 past it), only the named
 * text fields (each at most `maxFieldBytes`), once each or, the repeated ones, up to `maxFiles` times. A body that is not multipart is a 415. The temporary files
 * are removed when the request is answered. Read the result with receivedUpload(ctx).
 */
export function multipartUpload(options: MultipartOptions): Middleware {
  const maxBodyBytes = options.maxFiles * options.maxFileBytes + MULTIPART_OVERHEAD_BYTES;
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) throw new HttpError(415, 'Content-Type must be multipart/form-data');
    // A declared length over what any valid upload needs is refused before a byte is read.
    if ((ctx.request.length ?? 0) > maxBodyBytes) {
      discardRest(ctx.req);
      throw new HttpError(413, `Request body too large: at most ${options.maxFiles} file(s) of ${megabytes(options.maxFileBytes)} each`);
    }
    const dir = await mkdtemp(join(tmpdir(), 'logovote-upload-'));
    try {
      ctx.state[UPLOAD_STATE] = await receive(ctx.req, dir, options);
      await next();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
}

/** What multipartUpload received for this request. */
export function receivedUpload(ctx: Context): ReceivedUpload {
  const upload = ctx.state[UPLOAD_STATE] as ReceivedUpload | undefined;
  if (!upload) throw new Error('multipartUpload() must run before receivedUpload()');
  return upload;
}
