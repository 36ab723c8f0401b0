import { SessionId } from '@logovote/contracts';
import { PollModel, type Poll } from './poll';
import { readPollStatus, type PollStatus } from './poll-status';

/** An active poll as a request finds it: its document (which never changes) and its status as read for this request. */
export interface LivePoll {
  poll: Poll;
  status: PollStatus;
}

/** Reads the poll a request names with its status, as livePollReader does; null: no active poll of that id. */
export type ReadLivePoll = (sessionId: string | undefined) => Promise<LivePoll | null>;

/** How many polls' documents a process keeps at most (a poll's document is a few kilobytes at most). */
const DEFAULT_CAPACITY = 2_000;

/**
 * Reads the poll a public request names, if it is active (not half-created, not being deleted), with its
 * status (./poll-status): one lookup of the status, read fresh for every request, since closing, hiding and
 * deleting change it from any process. The poll document never changes after creation, so each reader keeps
 * the most recently read polls' documents (at most `capacity`, the least recently read dropped first) and
 * reads the document only for an active poll it does not keep.
 */
export function livePollReader(capacity: number = DEFAULT_CAPACITY): ReadLivePoll {
  const contents = new Map<string, Poll>();

  const keep = (pollId: string, content: Poll) => {
    contents.delete(pollId);
    contents.set(pollId, content);
    // A Map iterates in insertion order, and a read re-inserts: the first key is the least recently read.
    if (contents.size > capacity) contents.delete(contents.keys().next().value!);
  };

  return async (sessionId) => {
    const parsed = SessionId.safeParse(sessionId);
    if (!parsed.success) return null;
    const pollId = parsed.data;
    const status = await readPollStatus(pollId);
    if (status.state !== 'active') {
      contents.delete(pollId);
      return null;
    }
    const poll = contents.get(pollId) ?? (await PollModel.findById(pollId).lean<Poll>());
    // Active in its status but without a document: only a status written again after its deletion.
    if (!poll) return null;
    keep(pollId, poll);
    return { poll, status };
  };
}
