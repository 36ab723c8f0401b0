import type { MyVote } from '@logovote/contracts';
import { currentVote, reasonOf, type ReadLivePoll } from '@logovote/models';
import { voterFinder, type NewVoterPass, type VoterClues } from '../voter';

/**
 * The voter's vote in a poll, with the reason given for it (docs/reasons.md), so the page can show them;
 * null: no such poll. `newPass`: a voter with a vote whom the browser's voter pass does not name yet (a
 * private window, cookies cleared), for the pass to name from now on. `readLivePoll` reads the poll with its
 * status for this request (LivePolls' read).
 */
export function myVoteReader(
  ipHashSalt: string,
  readLivePoll: ReadLivePoll,
): (sessionId: string | undefined, clues: VoterClues) => Promise<{ mine: MyVote; newPass?: NewVoterPass } | null> {
  const findVoter = voterFinder(ipHashSalt);
  return async (sessionId, clues) => {
    const found = await readLivePoll(sessionId);
    if (!found) return null;
    const pollId = found.poll._id;
    const { voterKey, passed } = findVoter(pollId, clues);
    const { logoId, rev } = await currentVote(voterKey);
    const reason = logoId === null ? undefined : await reasonOf(voterKey, rev);
    const mine: MyVote = { hasVoted: logoId !== null, logoId, ...(reason === undefined ? {} : { reason }) };
    return logoId !== null && !passed ? { mine, newPass: { pollId, voterKey } } : { mine };
  };
}
