import { SessionId } from '@logovote/contracts';
import { readActivePoll, type Poll } from './poll';
import { readPollStatus } from './poll-status';

/** Whether a poll may be shown to the public now: active (not half-created, not being deleted) and not hidden pending review. */
export async function isPollShown(pollId: string): Promise<boolean> {
  const status = await readPollStatus(pollId);
  return status.state === 'active' && !status.hidden;
}

/**
 * The poll a public read names, if its content may be shown: 'not-found' when it is not active
 * (findActivePoll), 'hidden' while it is hidden pending review (docs/moderation.md).
 */
export async function findShownPoll<Fields extends keyof Poll>(
  sessionId: string | undefined,
  fields?: Fields[],
): Promise<{ poll: Pick<Poll, Fields | '_id'> } | { refused: 'not-found' | 'hidden' }> {
  const parsed = SessionId.safeParse(sessionId);
  const found = parsed.success ? await readActivePoll(parsed.data, fields) : null;
  if (!found) return { refused: 'not-found' };
  if (found.status.hidden) return { refused: 'hidden' };
  return { poll: found.poll };
}
