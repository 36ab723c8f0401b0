import type { Context } from 'koa';
import { FINGERPRINT_HEADER, Fingerprint } from '@logovote/contracts';
import { HttpError, parseInput, voterCookie } from '@logovote/service-kit';
import type { VoterClues } from '../voter';

export const MISSING_FINGERPRINT = `${FINGERPRINT_HEADER} header is required`;

/** The client fingerprint of spec section 3, from its header: a clear 400 when missing or malformed. */
export function requireFingerprint(ctx: Context, missingMessage: string): Fingerprint {
  const value = ctx.get(FINGERPRINT_HEADER);
  if (!value) throw new HttpError(400, missingMessage);
  return parseInput(Fingerprint, value);
}

/** What a voter's request says of its voter (../voter): its fingerprint (400 without one), address and voter cookie. */
export function voterCluesOf(ctx: Context): VoterClues {
  return { fingerprint: requireFingerprint(ctx, MISSING_FINGERPRINT), ip: ctx.ip, cookie: () => voterCookie(ctx) };
}
