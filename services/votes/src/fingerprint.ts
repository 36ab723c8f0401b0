import type { Context } from 'koa';
import { FINGERPRINT_HEADER, Fingerprint } from '@logovote/contracts';
import { HttpError, parseInput } from '@logovote/service-kit';

/** The client fingerprint of spec section 3, from its header: a clear 400 when missing or malformed. */
export function requireFingerprint(ctx: Context, missingMessage: string): Fingerprint {
  const value = ctx.get(FINGERPRINT_HEADER);
  if (!value) throw new HttpError(400, missingMessage);
  return parseInput(Fingerprint, value);
}
