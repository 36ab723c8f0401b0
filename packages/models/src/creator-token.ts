import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PollModel } from './poll';

/**
 * The creator token: the right to close and reopen a poll (docs/closing.md). It is answered once, at
 * creation; the poll keeps only its SHA-256, so a copy of the database does not hand out the rights.
 * 256 random bits need no slow hash: nobody can guess one, only look up a leaked one.
 */
export const newCreatorToken = (): string => randomBytes(32).toString('base64url');

export const hashCreatorToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Whether `token` is the one whose hash a poll keeps (compared in constant time; a poll without one has no creator). */
export function creatorTokenMatches(token: string | undefined, storedHash: string | null | undefined): boolean {
  if (!token || !storedHash) return false;
  const presented = Buffer.from(hashCreatorToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** Whether `token` is the creator token of the poll `pollId`. */
export async function isCreatorTokenOf(pollId: string, token: string | undefined): Promise<boolean> {
  const poll = await PollModel.findById(pollId, { creatorTokenHash: 1 }).lean<{ creatorTokenHash?: string }>();
  return creatorTokenMatches(token, poll?.creatorTokenHash);
}
