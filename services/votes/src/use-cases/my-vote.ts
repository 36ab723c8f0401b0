import type { MyVote } from '@logovote/contracts';
import { currentVote, reasonOf, type ReadLivePoll } from '@logovote/models';
import { voterFinder, type VoterClues } from '../voter';

/**
 * The voter's vote in a poll, with the reason given for it (docs/reasons.md), so the page can show them;
 * null: no such poll. `readLivePoll` reads the poll with its status for this request (livePollReader).
 */
export function myVoteReader(
  ipHashSalt: string,
  readLivePoll: ReadLivePoll,
): (sessionId: string | undefined, clues: VoterClues) => Promise<MyVote | null> {
  const findVoter = voterFinder(ipHashSalt);
  return async (sessionId, clues) => {
    const found = await readLivePoll(sessionId);
    if (!found) return null;
    const { voterKey } = await findVoter(found.poll._id, clues);
    const { logoId, rev } = await currentVote(voterKey);
    const reason = logoId === null ? undefined : await reasonOf(voterKey, rev);
    return { hasVoted: logoId !== null, logoId, ...(reason === undefined ? {} : { reason }) };
  };
}
