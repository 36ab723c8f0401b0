import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Structured JSON logs. Secrets and personal data (cookies, tokens, e-mails) are redacted. */
export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-csrf-token"]',
        'req.headers["x-creator-token"]',
        '*.email',
        '*.creatorEmail',
      ],
      censor: '[redacted]',
    },
  });
}

/** One line per request with its id and duration; the client address is deliberately not logged. */
export function requestLogger(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = ctx.get('X-Request-Id') || randomUUID();
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const entry = { requestId, method: ctx.method, path: ctx.path, status: ctx.status, durationMs: Math.round(durationMs * 10) / 10 };
      if (ctx.status >= 500) logger.error(entry, 'request');
      else logger.info(entry, 'request');
    }
  };
}
