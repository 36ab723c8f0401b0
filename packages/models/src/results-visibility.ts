import type { ResultsWithheldUntil } from '@logovote/contracts';
import { creatorTokenMatches } from './creator-token';
import type { Poll } from './poll';
import { readPollStatus, type PollStatus } from './poll-status';
import { currentVote, voterKeyOf } from './vote';

/** Who asks for a poll's results (from the request: @logovote/service-kit's resultsViewerClues). */
export interface ResultsViewer {
  /** The creator token the request shows, if any. */
  creatorToken: string | undefined;
  /** Whether the request carries a valid results pass of the poll (given to the holder of the creator token). */
  resultsPass: boolean;
  /** The voter the request's voter pass names, the fingerprint and the network's hash, as the votes service finds a voter. */
  voter: { passVoter: string | undefined; fingerprint: string | undefined; ipHash: string };
}

/** The poll's fields the rule reads. */
export const RESULTS_RULE_FIELDS = ['resultsVisibility', 'creatorTokenHash'] as const;
export type RuledPoll = Pick<Poll, '_id' | (typeof RESULTS_RULE_FIELDS)[number]>;

/** Whether the viewer has a vote in the poll: the voter its pass names, else the one with its fingerprint on its network. */
async function hasVoted(pollId: string, voter: ResultsViewer['voter']): Promise<boolean> {
  const id = voter.passVoter ?? (voter.fingerprint ? voterKeyOf(pollId, voter.fingerprint, voter.ipHash) : undefined);
  return id !== undefined && (await currentVote(id)).logoId !== null;
}

/** Whether the viewer is the poll's creator: the creator token, or a results pass (given only to its holder). */
export function isPollCreator(poll: RuledPoll, viewer: Pick<ResultsViewer, 'creatorToken' | 'resultsPass'>): boolean {
  return viewer.resultsPass || creatorTokenMatches(viewer.creatorToken, poll.creatorTokenHash);
}

/**
 * What the viewer waits for before a poll's results are shown to them, or undefined when they may see
 * them now (docs/results-visibility.md). Everyone sees them under the 'everyone' rule and, under both
 * others, while voting is closed; the creator (the creator token, or a results pass) at all times; under
 * 'after-vote', a viewer who has a vote in the poll. A poll with the 'everyone' rule costs no lookup;
 * `status` is read when not given.
 */
export async function resultsWithheldFrom(
  poll: RuledPoll,
  viewer: ResultsViewer,
  status?: Pick<PollStatus, 'closed'>,
): Promise<ResultsWithheldUntil | undefined> {
  const rule = poll.resultsVisibility;
  if (!rule) return undefined;
  if ((status ?? (await readPollStatus(poll._id))).closed) return undefined;
  if (isPollCreator(poll, viewer)) return undefined;
  if (rule === 'after-close') return 'closed';
  return (await hasVoted(poll._id, viewer.voter)) ? undefined : 'voted';
}
