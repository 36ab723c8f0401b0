import { SESSION_NOT_FOUND } from '@logovote/contracts';
import { HttpError } from './errors';

/**
 * The 404 of a request whose poll does not exist, is still being created or is being deleted: the spec's
 * 'Voting session not found' on the public API; the admin API passes its own message.
 */
export const pollNotFound = (message: string = SESSION_NOT_FOUND): HttpError => new HttpError(404, message);

/** The poll data access found for a request (null or undefined when none), or that 404. */
export function pollOr404<Found>(found: Found | null | undefined, message?: string): Found {
  if (found === null || found === undefined) throw pollNotFound(message);
  return found;
}
