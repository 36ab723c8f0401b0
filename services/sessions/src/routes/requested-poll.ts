import { POLL_HIDDEN } from '@logovote/contracts';
import { findShownPoll, type Poll } from '@logovote/models';
import { HttpError, pollNotFound } from '@logovote/service-kit';

/** The poll a public read names if its content may be shown: else 404, or 403 while it is hidden pending review (docs/moderation.md). */
export async function shownPollOr4xx<Fields extends keyof Poll>(
  sessionId: string | undefined,
  fields?: Fields[],
): Promise<Pick<Poll, Fields | '_id'>> {
  const found = await findShownPoll(sessionId, fields);
  if ('poll' in found) return found.poll;
  throw found.refused === 'hidden' ? new HttpError(403, POLL_HIDDEN) : pollNotFound();
}
