import { POLL_HIDDEN, VOTING_CLOSED } from '@logovote/contracts';
import { channelLedger, readPollStatus, voteLedger } from '@logovote/models';
import { HttpError } from '@logovote/service-kit';
import type { WrittenRevision } from './cast-vote';

/**
 * Why a poll takes no votes now, if it does not: closed by its creator (docs/closing.md), or hidden
 * pending review after voters' reports (docs/moderation.md). Both answer 409 with their message. One
 * read of the poll's status.
 */
async function votingRefusal(pollId: string): Promise<HttpError | undefined> {
  const status = await readPollStatus(pollId);
  if (status.closed) return new HttpError(409, VOTING_CLOSED);
  if (status.hidden) return new HttpError(409, POLL_HIDDEN);
  return undefined;
}

/** The 409 of a vote on a closed poll (docs/closing.md) or on one hidden pending review (docs/moderation.md). */
export async function refuseVoteIfClosed(pollId: string): Promise<void> {
  const refusal = await votingRefusal(pollId);
  if (refusal) throw refusal;
}

/**
 * The second look, after a vote was written: a vote is acknowledged only if the poll still took votes
 * once its ledger revision was in, so every acknowledged vote was written before the close (or the
 * hiding) was recorded. A vote that finds the poll closed or hidden now takes its own revision back (the
 * voter's next revision returns to the logo before it) and is refused with the 409. The unique key of
 * that next revision leaves alone a newer revision of the same voter (another request of it, which
 * decides for itself); a request that wrote nothing (the same logo again) leaves the vote from before.
 */
export async function withdrawVoteIfClosedMeanwhile(
  pollId: string,
  voteId: string,
  logoId: string,
  written: WrittenRevision | undefined,
  /** The channel tally the vote was mirrored into (docs/channels.md): the withdrawal is mirrored there too. */
  channelTally?: string,
): Promise<void> {
  const refusal = await votingRefusal(pollId);
  if (!refusal) return;
  if (written) {
    const withdrawal = { member: voteId, rev: written.rev + 1, from: logoId, to: written.from };
    if ((await voteLedger.append({ tally: pollId, ...withdrawal })) && channelTally)
      await channelLedger.append({ tally: channelTally, ...withdrawal });
  }
  throw refusal;
}
