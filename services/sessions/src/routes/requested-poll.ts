import { POLL_HIDDEN, SESSION_NOT_FOUND } from '@logovote/contracts';
import { findActivePoll, findShownPoll, type Poll } from '@logovote/models';
import { HttpError } from '@logovote/service-kit';

/** The active poll a request names, or the spec's 404 'Session not found'. */
export async function activePollOr404<Fields extends keyof Poll>(
  sessionId: string | undefined,
  fields?: Fields[],
): Promise<Pick<Poll, Fields | '_id'>> {
  const poll = await findActivePoll(sessionId, fields);
  if (!poll) throw new HttpError(404, SESSION_NOT_FOUND);
  return poll;
}

/** The poll a public read names if its content may be shown: else 404, or 403 while it is hidden pending review (docs/moderation.md). */
export async function shownPollOr4xx<Fields extends keyof Poll>(
  sessionId: string | undefined,
  fields?: Fields[],
): Promise<Pick<Poll, Fields | '_id'>> {
  const found = await findShownPoll(sessionId, fields);
  if ('poll' in found) return found.poll;
  throw found.refused === 'hidden' ? new HttpError(403, POLL_HIDDEN) : new HttpError(404, SESSION_NOT_FOUND);
}
