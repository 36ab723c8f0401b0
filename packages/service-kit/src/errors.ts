import type { Middleware } from 'koa';
import { ZodError } from 'zod';
import type { Logger } from 'pino';

/** An error whose message is safe to show to the client. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** What a client gets while a dependency (database, object store) is down; the gateway says the same when a service is. */
export const SERVICE_UNAVAILABLE = 'Service temporarily unavailable. Please try again shortly.';

/** Socket errors of a server that is down, restarting or unreachable. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/** Object-store answers that mean "try again later". */
const OBJECT_STORE_BUSY_CODES = new Set(['ServiceUnavailable', 'SlowDown', 'XMinioServerNotInitialized']);
/** The MongoDB driver's (and mongoose's) errors for a server it cannot reach or lost. */
const MONGO_UNAVAILABLE = /^Mongo(ose)?(ServerSelection|Network|NetworkTimeout|NotConnected|TopologyClosed|PoolCleared)Error$/;
/**
 * FerretDB answers InternalError (code 1) when its PostgreSQL is down or restarting: the database is
 * unavailable, not broken. These are the connection failures its message then names.
 */
const FERRETDB_BACKEND_UNAVAILABLE =
  /failed to connect to|dial error|connection refused|SQLSTATE 57P0[1-3]|conn closed|the database system is (starting up|shutting down)/;

/**
 * Whether a failure means a dependency is unavailable rather than a bug: it is answered 503, so the client
 * knows to try again, and nothing was half-written (each write path is ordered to leave nothing behind).
 */
export function isDependencyUnavailable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { name, code, message, cause } = current as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown };
    if (typeof name === 'string' && MONGO_UNAVAILABLE.test(name)) return true;
    if (name === 'MongoServerError' && code === 1 && typeof message === 'string' && FERRETDB_BACKEND_UNAVAILABLE.test(message)) return true;
    if (typeof code === 'string' && (NETWORK_ERROR_CODES.has(code) || OBJECT_STORE_BUSY_CODES.has(code))) return true;
    if (name === 'MongooseError' && typeof message === 'string' && message.includes('buffering timed out')) return true;
    current = cause;
  }
  return false;
}

/** Readable one-line summary of zod issues, e.g. "logoId: Required; email: Invalid email". */
export function formatZodError(error: ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message)).join('; ');
}

/** Errors thrown by Koa, koa-body, formidable and http-errors carry a status and an `expose` flag. */
interface StatusError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  message?: unknown;
  httpCode?: unknown;
}

function clientStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const candidate = error as StatusError;
  const status = candidate.status ?? candidate.statusCode ?? candidate.httpCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/**
 * Turns every failure into a JSON `{ message }`: zod errors become 400 with a readable message,
 * client errors keep their status, an unavailable dependency is a 503, anything else is a 500; neither
 * reveals anything internal.
 */
export function errorHandler(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error: unknown) {
      if (error instanceof HttpError) {
        ctx.status = error.status;
        ctx.set(error.headers);
        ctx.body = { message: error.message };
        return;
      }
      if (error instanceof ZodError) {
        ctx.status = 400;
        ctx.body = { message: formatZodError(error) };
        return;
      }
      const clientStatus = clientStatusOf(error);
      if (clientStatus !== undefined) {
        ctx.status = clientStatus;
        const message = (error as StatusError).message;
        ctx.body = { message: typeof message === 'string' && message ? message : 'Bad request' };
        return;
      }
      if (isDependencyUnavailable(error)) {
        logger.warn({ err: error, method: ctx.method, path: ctx.path }, 'dependency unavailable');
        ctx.status = 503;
        ctx.set('Retry-After', '5');
        ctx.body = { message: SERVICE_UNAVAILABLE };
        return;
      }
      logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { message: 'Internal server error' };
    }
  };
}

const EMPTY_RESPONSE_MESSAGES: Record<number, string> = {
  404: 'Not found',
  405: 'Method not allowed',
};

/** Unmatched routes and methods answer JSON too, never Koa's plain-text bodies. */
export const jsonForEmptyResponses: Middleware = async (ctx, next) => {
  await next();
  // A method no route implements (PROPFIND, ...) is the client's mistake like any other wrong method: 405,
  // where the router would say 501.
  if (ctx.status === 501 && ctx.body == null) ctx.status = 405;
  const status = ctx.status;
  const message = EMPTY_RESPONSE_MESSAGES[status];
  if (!message || ctx.body != null) return;
  ctx.body = { message };
  // Koa turns an implicit 404 into 200 when a body is set; keep the real status.
  ctx.status = status;
};
