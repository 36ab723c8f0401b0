import { findActivePoll, isCreatorTokenOf, recordVotingState, signalPollVisibility } from '@logovote/models';

/** How a close or reopen went: the poll's voting state as recorded, or why nothing was. */
export type VotingStateOutcome =
  | { outcome: 'recorded'; pollId: string; closed: boolean; closedAt: Date | null }
  /** No such poll, or it is being deleted. */
  | { outcome: 'poll-not-found' }
  /** The request does not show the poll's creator token. */
  | { outcome: 'not-creator' };

/**
 * Closing or reopening a poll, the use case (docs/closing.md): only the creator (its token) stops and
 * resumes voting; both are idempotent. A deletion that begins meanwhile wins.
 */
export async function setVotingState(
  sessionId: string | undefined,
  creatorToken: string | undefined,
  closed: boolean,
): Promise<VotingStateOutcome> {
  const poll = await findActivePoll(sessionId, ['resultsVisibility']);
  if (!poll) return { outcome: 'poll-not-found' };
  const pollId = poll._id;
  if (!(await isCreatorTokenOf(pollId, creatorToken))) return { outcome: 'not-creator' };
  const state = await recordVotingState(pollId, closed);
  // Only an active poll's status changes: a deletion that began meanwhile left it as it was.
  if (state.state !== 'active') return { outcome: 'poll-not-found' };
  // Streams that show the counts only while voting is closed end when it reopens (docs/results-visibility.md).
  if (poll.resultsVisibility) await signalPollVisibility(pollId);
  return { outcome: 'recorded', pollId, closed: state.closed, closedAt: state.closedAt };
}
