import type { MyVote } from '@logovote/contracts';
import { currentVote, reasonOf } from '@logovote/models';
import { voterFinder, type VoterClues } from '../voter';
import { pollToVoteOn } from './cast-vote';

/** The voter's vote in a poll, with the reason given for it (docs/reasons.md), so the page can show them; null: no such poll. */
export function myVoteReader(ipHashSalt: string): (sessionId: string | undefined, clues: VoterClues) => Promise<MyVote | null> {
  const findVoter = voterFinder(ipHashSalt);
  return async (sessionId, clues) => {
    const poll = await pollToVoteOn(sessionId);
    if (!poll) return null;
    const { voterKey } = await findVoter(poll._id, clues);
    const { logoId, rev } = await currentVote(voterKey);
    const reason = logoId === null ? undefined : await reasonOf(voterKey, rev);
    return { hasVoted: logoId !== null, logoId, ...(reason === undefined ? {} : { reason }) };
  };
}
