import { PollModel, activePoll, findActivePoll, type Poll } from './poll';
import { readPollStatus } from './poll-status';

/**
 * Whether a poll may be shown to the public now: active (not half-created, not being deleted) and not
 * hidden pending review. Two equality lookups, run together.
 */
export async function isPollShown(pollId: string): Promise<boolean> {
  const [active, status] = await Promise.all([PollModel.exists(activePoll(pollId)), readPollStatus(pollId)]);
  return active !== null && !status.hidden;
}

/**
 * The poll a public read names, if its content may be shown: 'not-found' when it is not active
 * (findActivePoll), 'hidden' while it is hidden pending review (docs/moderation.md).
 */
export async function findShownPoll<Fields extends keyof Poll>(
  sessionId: string | undefined,
  fields?: Fields[],
): Promise<{ poll: Pick<Poll, Fields | '_id'> } | { refused: 'not-found' | 'hidden' }> {
  const poll = await findActivePoll(sessionId, fields);
  if (!poll) return { refused: 'not-found' };
  if ((await readPollStatus(poll._id)).hidden) return { refused: 'hidden' };
  return { poll };
}
