import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import { koaBody } from 'koa-body';
import { HttpError } from './errors';
import { parseInput } from './validation';

const JSON_LIMIT = '16kb';

/**
 * Parses a small JSON body; anything else is refused with a clear 4xx: a non-JSON content type is
 * 415, a body over the limit 413, malformed JSON 400.
 */
export function jsonBody(): Middleware {
  const parse = koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: JSON_LIMIT,
    multipart: false,
    urlencoded: false,
    text: false,
    onError: (error) => {
      const status = (error as { status?: number }).status;
      if (status === 413) throw new HttpError(413, `Request body must be at most ${JSON_LIMIT}`);
      throw new HttpError(400, 'Request body must be valid JSON');
    },
  });
  return async (ctx, next) => {
    if (ctx.request.length && !ctx.is('application/json')) throw new HttpError(415, 'Content-Type must be application/json');
    await parse(ctx, next);
  };
}

/** Validates the body jsonBody() parsed; a mismatch is a 400 with a readable message. */
export function parseJsonBody<Schema extends z.ZodType>(ctx: Context, schema: Schema): z.infer<Schema> {
  return parseInput(schema, ctx.request.body);
}
