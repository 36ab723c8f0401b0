import { voterKeyOf } from '@logovote/models';
import { hashIp } from '@logovote/service-kit';

/** What a request says of its voter. */
export interface VoterClues {
  fingerprint: string;
  /** The client's network address (kept only as a keyed hash). */
  ip: string;
  /** The voter the browser's voter pass names in this poll, if it carries a valid one. */
  passVoter: string | undefined;
}

export interface Voter {
  voterKey: string;
  /** Whether the browser's voter pass names this voter already. */
  passed: boolean;
  ipHash: string;
}

/** A voter the browser's voter pass is to name from now on, in its poll: the request's pass did not. */
export interface NewVoterPass {
  pollId: string;
  voterKey: string;
}

/**
 * Who is voting (docs/api/votes-and-notify.md, "Who is one voter"): the voter the browser's voter pass
 * names in this poll, wherever it votes from; else the voter with this fingerprint on this network (a
 * private window, or cookies cleared, is the same voter). What every voter's call (my-vote, vote, reason,
 * note) starts from; it reads nothing.
 */
export function voterFinder(ipHashSalt: string): (pollId: string, clues: VoterClues) => Voter {
  return (pollId, clues) => {
    const ipHash = hashIp(ipHashSalt, clues.ip);
    if (clues.passVoter) return { voterKey: clues.passVoter, passed: true, ipHash };
    return { voterKey: voterKeyOf(pollId, clues.fingerprint, ipHash), passed: false, ipHash };
  };
}
