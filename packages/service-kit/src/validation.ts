import type { z } from 'zod';
import { HttpError, formatZodError } from './errors';

/** Validates untrusted input at the edge; failures are a 400 with a readable message. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpError(400, formatZodError(result.error));
  return result.data;
}
