import { z } from 'zod';
import { SessionId } from './common';
import { CreatedSession, SessionView } from './sessions';

/**
 * Closing a poll (docs/closing.md). The rights come with creation: POST /api/sessions answers a creator
 * token once; the server keeps only its SHA-256. Closing and reopening carry it in this header, and so
 * does the notify call that should add the private manage link to the e-mail (its body stays the spec's
 * {email}).
 */
export const CREATOR_TOKEN_HEADER = 'X-Creator-Token';

/** 32 random bytes as base64url (43 characters): 256 bits nobody can guess. */
export const CreatorToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'The creator token must be 43 base64url characters');
export type CreatorToken = z.infer<typeof CreatorToken>;

/** POST /api/sessions: the spec's created session, plus the creator token (the only answer that carries it). */
export const CreatedSessionWithCreatorToken = CreatedSession.extend({ creatorToken: CreatorToken });
export type CreatedSessionWithCreatorToken = z.infer<typeof CreatedSessionWithCreatorToken>;

/** Whether a poll takes votes. The session view carries `closed: true` and `closedAt` only while it is closed. */
export const VotingState = z.object({
  closed: z.boolean().optional(),
  /** When voting closed (ISO 8601), while it is closed. */
  closedAt: z.iso.datetime().optional(),
});
export type VotingState = z.infer<typeof VotingState>;

/** GET /api/sessions/{sessionId}: the spec's session view with the voting state added. */
export const SessionViewWithVotingState = SessionView.extend(VotingState.shape);
export type SessionViewWithVotingState = z.infer<typeof SessionViewWithVotingState>;

/**
 * POST /api/sessions/{sessionId}/close and /reopen (no body; headers X-CSRF-Token and X-Creator-Token):
 * the poll's voting state afterwards. Both are idempotent.
 */
export const VotingStateChange = z.object({
  sessionId: SessionId,
  closed: z.boolean(),
  closedAt: z.iso.datetime().optional(),
});
export type VotingStateChange = z.infer<typeof VotingStateChange>;

/** The fragment that carries the creator token in a manage link: a fragment never reaches a server or its logs. */
export const MANAGE_FRAGMENT = 'manage';

/** The private manage link: the results page, which offers 'Close voting' to the holder of the token. */
export function manageLink(publicOrigin: string, sessionId: string, creatorToken: string): string {
  return `${publicOrigin}/results/${sessionId}#${MANAGE_FRAGMENT}=${creatorToken}`;
}

/** 409: a vote on a closed poll. */
export const VOTING_CLOSED = 'Voting on this poll has closed.';
/** 403: closing, reopening or a manage link without the poll's creator token. */
export const CREATOR_TOKEN_REJECTED = "Only the poll's creator can do this: the creator token is missing or wrong.";
