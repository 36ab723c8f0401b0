import { VOTING_CLOSED } from '@logovote/contracts';
import { appendLedgerEntry, currentVote, readVotingState, syncVoteRow, type CurrentVote } from '@logovote/models';
import { HttpError } from '@logovote/service-kit';

/** The 409 of a vote on a closed poll (docs/closing.md). */
export async function refuseVoteIfClosed(pollId: string): Promise<void> {
  if ((await readVotingState(pollId)).closed) throw new HttpError(409, VOTING_CLOSED);
}

/**
 * The second look, after a vote was written: a vote is acknowledged only if the poll was still open
 * once its ledger revision was in, so every acknowledged vote was written before the close was
 * recorded. A vote that finds the poll closed now takes its own revision back (the voter's next
 * revision returns to the vote it had before this request, `before`) and is refused with the 409.
 * Left alone: a newer revision of the same voter (another request of it, which decides for itself),
 * and a request that changed nothing (the same logo again: its vote is the one from before the close).
 */
export async function withdrawVoteIfClosedMeanwhile(pollId: string, voteId: string, logoId: string, before: CurrentVote): Promise<void> {
  if (!(await readVotingState(pollId)).closed) return;
  const now = await currentVote(voteId);
  if (now.rev > before.rev && now.logoId === logoId) {
    await appendLedgerEntry({ pollId, voteId, rev: now.rev + 1, from: logoId, to: before.countedLogoId });
    await syncVoteRow(voteId);
  }
  throw new HttpError(409, VOTING_CLOSED);
}
