import { voterKeyOf, voterOfCookie } from '@logovote/models';
import { hashIp, voterCookieHasher } from '@logovote/service-kit';

/** What a request says of its voter. */
export interface VoterClues {
  fingerprint: string;
  /** The client's network address (kept only as a keyed hash). */
  ip: string;
  /** The browser's voter cookie; issued (`issued: true`) when it has none. Asked for only once the poll may be voted on. */
  cookie: () => { value: string; issued: boolean };
}

export interface Voter {
  voterKey: string;
  /** Whether the browser's cookie already names this voter in this poll. */
  bound: boolean;
  /** The keyed hash of the browser's voter cookie, for binding it to the voter. */
  cookieHash: string;
  ipHash: string;
}

/**
 * Who is voting (docs/api/votes-and-notify.md, "Who is one voter"): the voter the browser's cookie is
 * bound to in this poll, wherever it votes from; else the voter with this fingerprint on this network
 * (a private window, or cookies cleared, is the same voter). What every voter's call (my-vote, vote,
 * reason, note) starts from.
 */
export function voterFinder(ipHashSalt: string): (pollId: string, clues: VoterClues) => Promise<Voter> {
  const hashCookie = voterCookieHasher(ipHashSalt);
  return async (pollId, clues) => {
    const cookie = clues.cookie();
    const cookieHash = hashCookie(pollId, cookie.value);
    const ipHash = hashIp(ipHashSalt, clues.ip);
    // A cookie issued by this answer is bound to nobody yet.
    const boundVoter = cookie.issued ? undefined : await voterOfCookie(pollId, cookieHash);
    if (boundVoter) return { voterKey: boundVoter, bound: true, cookieHash, ipHash };
    return { voterKey: voterKeyOf(pollId, clues.fingerprint, ipHash), bound: false, cookieHash, ipHash };
  };
}
