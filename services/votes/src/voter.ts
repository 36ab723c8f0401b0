import { createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { voteId, voterOfCookie } from '@logovote/models';
import { hashIp } from '@logovote/service-kit';

/** The first-party voter cookie: random, HttpOnly, sent only to the poll API. */
const VOTER_COOKIE = 'lv_voter';
const VOTER_COOKIE_VALUE = /^[A-Za-z0-9_-]{22}$/;
/** Browsers cap cookie lifetimes at 400 days; a poll rarely lives that long. */
const VOTER_COOKIE_MAX_AGE_MS = 400 * 24 * 60 * 60 * 1000;

/** The browser's voter cookie, and whether this answer issues it (the browser had none, or a malformed one). */
export function voterCookie(ctx: Context): { value: string; issued: boolean } {
  const present = ctx.cookies.get(VOTER_COOKIE);
  if (present && VOTER_COOKIE_VALUE.test(present)) return { value: present, issued: false };
  const value = randomBytes(16).toString('base64url');
  ctx.cookies.set(VOTER_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secure,
    path: '/api/sessions',
    maxAge: VOTER_COOKIE_MAX_AGE_MS,
    overwrite: true,
  });
  return { value, issued: true };
}

/** What is stored of a voter cookie: keyed, and bound to the poll so one browser's rows in two polls do not match. */
export function voterCookieHasher(secret: string): (pollId: string, cookie: string) => string {
  const key = createHmac('sha256', secret).update('voter-cookie').digest();
  return (pollId, cookie) => createHmac('sha256', key).update(`${pollId}\n${cookie}`).digest('hex').slice(0, 32);
}

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
