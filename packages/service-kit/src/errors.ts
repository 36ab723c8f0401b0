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
 * client errors keep their status, anything else is a 500 that reveals nothing internal.
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
      logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { message: 'Internal server error' };
    }
  };
}

const EMPTY_RESPONSE_MESSAGES: Record<number, string> = {
  404: 'Not found',
  405: 'Method not allowed',
  501: 'Not implemented',
};

/** Unmatched routes and methods answer JSON too, never Koa's plain-text bodies. */
export const jsonForEmptyResponses: Middleware = async (ctx, next) => {
  await next();
  const status = ctx.status;
  const message = EMPTY_RESPONSE_MESSAGES[status];
  if (!message || ctx.body != null) return;
  ctx.body = { message };
  // Koa turns an implicit 404 into 200 when a body is set; keep the real status.
  ctx.status = status;
};
