import type { Context } from 'koa';
import { FINGERPRINT_HEADER, Fingerprint } from '@logovote/contracts';
import { HttpError, parseInput, voterPasses } from '@logovote/service-kit';
import type { NewVoterPass, VoterClues } from '../voter';

export const MISSING_FINGERPRINT = `${FINGERPRINT_HEADER} header is required`;

/** The client fingerprint of spec section 3, from its header: a clear 400 when missing or malformed. */
export function requireFingerprint(ctx: Context, missingMessage: string): Fingerprint {
  const value = ctx.get(FINGERPRINT_HEADER);
  if (!value) throw new HttpError(400, missingMessage);
  return parseInput(Fingerprint, value);
}

/**
 * What a voter's request to /api/sessions/{sessionId}/... says of its voter (../voter): its fingerprint
 * (400 without one), address and voter pass; and the pass's issuing, for an answer that names the voter.
 */
export function voterRequests(ipHashSalt: string) {
  const passes = voterPasses(ipHashSalt);
  return {
    cluesOf(ctx: Context, sessionId: string | undefined): VoterClues {
      const fingerprint = requireFingerprint(ctx, MISSING_FINGERPRINT);
      return { fingerprint, ip: ctx.ip, passVoter: sessionId === undefined ? undefined : passes.voterOf(ctx, sessionId) };
    },
    /** From now on this browser is this voter in this poll, from any address. */
    issuePass(ctx: Context, pass: NewVoterPass): void {
      passes.issue(ctx, pass.pollId, pass.voterKey);
    },
  };
}
