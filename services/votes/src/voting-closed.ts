import { VOTING_CLOSED } from '@logovote/contracts';
import { appendLedgerEntry, readVotingState, syncVoteRow } from '@logovote/models';
import { HttpError } from '@logovote/service-kit';
import type { CastResult } from './cast-vote';

/** The 409 of a vote on a closed poll (docs/closing.md). */
export async function refuseVoteIfClosed(pollId: string): Promise<void> {
  if ((await readVotingState(pollId)).closed) throw new HttpError(409, VOTING_CLOSED);
}

/**
 * The second look, after a vote was written: a vote is acknowledged only if the poll was still open
 * once its ledger revision was in, so every acknowledged vote was written before the close was
 * recorded. A vote that finds the poll closed now takes its own revision back (the voter's next
 * revision returns to the logo before it) and is refused with the 409. The unique key of that next
 * revision leaves alone a newer revision of the same voter (another request of it, which decides for
 * itself); a request that wrote nothing (the same logo again) leaves the vote from before the close.
 */
export async function withdrawVoteIfClosedMeanwhile(
  pollId: string,
  voteId: string,
  logoId: string,
  written: CastResult['written'],
): Promise<void> {
  if (!(await readVotingState(pollId)).closed) return;
  if (written && (await appendLedgerEntry({ pollId, voteId, rev: written.rev + 1, from: logoId, to: written.from }))) {
    await syncVoteRow(voteId);
  }
  throw new HttpError(409, VOTING_CLOSED);
}
