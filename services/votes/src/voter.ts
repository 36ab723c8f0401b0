import type { Context } from 'koa';
import { voteId, voterOfCookie } from '@logovote/models';
import { hashIp, voterCookie, voterCookieHasher } from '@logovote/service-kit';

export interface VoterClues {
  pollId: string;
  fingerprint: string;
  ipHash: string;
  /** The keyed hash of the browser's voter cookie; absent when this answer issues the cookie. */
  cookieHash?: string;
}

/**
 * Who is voting (docs/api/votes-and-notify.md, "Who is one voter"): the voter the browser's cookie is
 * bound to in this poll, wherever it votes from; else the voter with this fingerprint on this network
 * (a private window, or cookies cleared, is the same voter). `bound` says whether the cookie already
 * names the voter.
 */
export async function identifyVoter(clues: VoterClues): Promise<{ voteId: string; bound: boolean }> {
  const boundVoter = clues.cookieHash ? await voterOfCookie(clues.pollId, clues.cookieHash) : undefined;
  if (boundVoter) return { voteId: boundVoter, bound: true };
  return { voteId: voteId(clues.pollId, clues.fingerprint, clues.ipHash), bound: false };
}

/**
 * The voter of a request to a poll (see identifyVoter), issuing the voter cookie when the browser has
 * none: what every voter's call (my-vote, vote, reason) starts from.
 */
export function requestVoter(ipHashSalt: string) {
  const hashCookie = voterCookieHasher(ipHashSalt);
  return async (ctx: Context, pollId: string, fingerprint: string) => {
    const cookie = voterCookie(ctx);
    const cookieHash = hashCookie(pollId, cookie.value);
    const ipHash = hashIp(ipHashSalt, ctx.ip);
    const voter = await identifyVoter({ pollId, fingerprint, ipHash, ...(cookie.issued ? {} : { cookieHash }) });
    return { ...voter, cookieHash, ipHash };
  };
}
