import { SessionId } from '@logovote/contracts';
import { PollModel, activePoll, type Poll } from './poll';
import { readPollStatus, type PollStatus } from './poll-status';

/** What a poll's creation fixed: every field but its state, plan and last activity, the ones that change. */
export type PollContent = Omit<Poll, 'state' | 'paymentPlan' | 'lastActivityAt'>;
const CONTENT_FIELDS = [
  'logos',
  'feedbackPrompt',
  'logoOrder',
  'sharedNetwork',
  'resultsVisibility',
  'channels',
  'creatorTokenHash',
  'createdAt',
];
const CONTENT_PROJECTION = Object.fromEntries(CONTENT_FIELDS.map((field) => [field, 1]));

/** A poll as a public request finds it: its content and its status as read for this request. */
export interface LivePoll {
  poll: PollContent;
  status: PollStatus;
}

/** Reads the poll a request names with its status, as livePollReader does; null: no active poll of that id. */
export type ReadLivePoll = (sessionId: string | undefined) => Promise<LivePoll | null>;

/** How many polls' content a process keeps at most (a poll's content is a few kilobytes at most). */
const DEFAULT_CAPACITY = 2_000;

/**
 * Reads the poll a public request names, if it is active (not half-created, not being deleted), with its
 * status (./poll-status): one lookup of the status, read fresh for every request, since closing, hiding and
 * deleting change it from any process. The content never changes after creation, so each reader keeps the
 * most recently read polls' content (at most `capacity`, the least recently read dropped first) and reads
 * the poll document only for a poll it does not keep. A status that does not say active leaves the poll
 * document to decide, read fresh each time: a deletion marks the status right after the poll document,
 * before anything of the poll is removed.
 */
export function livePollReader(capacity: number = DEFAULT_CAPACITY): ReadLivePoll {
  const contents = new Map<string, PollContent>();

  const readContent = (pollId: string) => PollModel.findOne(activePoll(pollId), CONTENT_PROJECTION).lean<PollContent>();

  const keep = (pollId: string, content: PollContent) => {
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
    if (!status.active) {
      contents.delete(pollId);
      const poll = await readContent(pollId);
      return poll ? { poll, status } : null;
    }
    const kept = contents.get(pollId);
    const poll = kept ?? (await readContent(pollId));
    // Active in its status but not as a document: a creation that stopped before its last step.
    if (!poll) return null;
    keep(pollId, poll);
    return { poll, status };
  };
}
