import { SessionId } from '@logovote/contracts';
import { PollModel, type Poll } from './poll';
import { readPollStatus, type PollStatus } from './poll-status';

/** An active poll as a request finds it: its document (which never changes) and its status as read for this request. */
export interface LivePoll {
  poll: Poll;
  status: PollStatus;
}

/** Reads the poll a request names with its status, read fresh; null: no active poll of that id. */
export type ReadLivePoll = (sessionId: string | undefined) => Promise<LivePoll | null>;

/** Whether a poll with this status takes votes: active, open and shown. */
const takesVotes = (status: PollStatus): boolean => status.state === 'active' && !status.closed && !status.hidden;

/**
 * A process's view of the polls its requests name. The poll document never changes after creation, so the
 * view keeps the most recently read polls' documents (at most `capacity`, the least recently read dropped
 * first) and reads the document only for an active poll it does not keep. The status changes from any
 * process (closing, hiding, deleting), so `read` reads it for every request. A write whose outcome a second
 * look decides (a vote: ../../services/votes' cast-vote) may start from the status kept from the last look
 * instead, while that said the poll takes votes: `readToVoteOn`. Its second look (`lookAgain`) reads the
 * status fresh and keeps it, so a process learns of a closed poll from the first vote that finds it.
 */
export interface LivePolls {
  read: ReadLivePoll;
  /** As `read`, without reading the status when the kept one says the poll takes votes (`kept: true` then). */
  readToVoteOn(sessionId: string | undefined): Promise<(LivePoll & { kept: boolean }) | null>;
  /** The poll's status now (one lookup), kept for the next `readToVoteOn`. */
  lookAgain(pollId: string): Promise<PollStatus>;
}

/** How many polls' documents a process keeps at most (a poll's document is a few kilobytes at most). */
const DEFAULT_CAPACITY = 2_000;

export function livePolls(capacity: number = DEFAULT_CAPACITY): LivePolls {
  const kept = new Map<string, { poll: Poll; status: PollStatus }>();

  const keep = (pollId: string, entry: LivePoll) => {
    kept.delete(pollId);
    kept.set(pollId, entry);
    // A Map iterates in insertion order, and a read re-inserts: the first key is the least recently read.
    if (kept.size > capacity) kept.delete(kept.keys().next().value!);
  };

  const read: ReadLivePoll = async (sessionId) => {
    const parsed = SessionId.safeParse(sessionId);
    if (!parsed.success) return null;
    const pollId = parsed.data;
    const status = await readPollStatus(pollId);
    if (status.state !== 'active') {
      kept.delete(pollId);
      return null;
    }
    const poll = kept.get(pollId)?.poll ?? (await PollModel.findById(pollId).lean<Poll>());
    // Active in its status but without a document: only a status written again after its deletion.
    if (!poll) return null;
    keep(pollId, { poll, status });
    return { poll, status };
  };

  return {
    read,
    async readToVoteOn(sessionId) {
      const parsed = SessionId.safeParse(sessionId);
      if (!parsed.success) return null;
      const entry = kept.get(parsed.data);
      if (entry && takesVotes(entry.status)) {
        keep(parsed.data, entry);
        return { ...entry, kept: true };
      }
      const found = await read(sessionId);
      return found && { ...found, kept: false };
    },
    async lookAgain(pollId) {
      const status = await readPollStatus(pollId);
      const entry = kept.get(pollId);
      if (entry && status.state === 'active') keep(pollId, { poll: entry.poll, status });
      else kept.delete(pollId);
      return status;
    },
  };
}
