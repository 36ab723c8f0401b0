import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  CREATOR_TOKEN_HEADER,
  DAY_MS,
  FINGERPRINT_HEADER,
  Fingerprint,
  RESULTS_PASS_COOKIE,
  RESULTS_PASS_TTL_SECONDS,
  SECOND_MS,
} from '@logovote/contracts';
import { derivedKey, hashIp } from './client-address';

/** Key of the HMAC that turns a voter's address into the stored ipHash, and of the voter cookie's stored hash. */
export const ipHashSaltEnv = z.object({ IP_HASH_SALT: z.string().min(32, 'must be at least 32 characters') });

/** The first-party voter cookie: random, HttpOnly, sent only to the poll API (docs/api/votes-and-notify.md, "Who is one voter"). */
export const VOTER_COOKIE = 'lv_voter';
const VOTER_COOKIE_VALUE = /^[A-Za-z0-9_-]{22}$/;
/** Browsers cap cookie lifetimes at 400 days; a poll rarely lives that long. */
const VOTER_COOKIE_MAX_AGE_MS = 400 * DAY_MS;

/** The browser's voter cookie, if it sent a well-formed one. */
export function presentVoterCookie(ctx: Context): string | undefined {
  const present = ctx.cookies.get(VOTER_COOKIE);
  return present && VOTER_COOKIE_VALUE.test(present) ? present : undefined;
}

/** The browser's voter cookie, and whether this answer issues it (the browser had none, or a malformed one). */
export function voterCookie(ctx: Context): { value: string; issued: boolean } {
  const present = presentVoterCookie(ctx);
  if (present) return { value: present, issued: false };
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

/**
 * The results pass (docs/results-visibility.md): proof, in an HttpOnly cookie on the poll's own API paths,
 * that this browser showed the creator token a short while ago. It carries no token: its expiry (Unix
 * seconds) and an HMAC over the poll and that expiry, under a key of its own derived from the anti-forgery
 * secret, so every service that holds that secret checks it without shared state.
 */
export function resultsPasses(csrfSecret: string) {
  const key = derivedKey(csrfSecret, 'results-pass');
  const sign = (pollId: string, expires: number) => createHmac('sha256', key).update(`${pollId}|${expires}`).digest('base64url');
  return {
    /** Sets the pass of `pollId` on the answer. */
    issue(ctx: Context, pollId: string, now: number = Date.now()): void {
      const expires = Math.floor(now / 1000) + RESULTS_PASS_TTL_SECONDS;
      ctx.cookies.set(RESULTS_PASS_COOKIE, `${expires}.${sign(pollId, expires)}`, {
        httpOnly: true,
        sameSite: 'strict',
        secure: ctx.secure,
        path: `/api/sessions/${pollId}`,
        maxAge: RESULTS_PASS_TTL_SECONDS * SECOND_MS,
        overwrite: true,
      });
    },
    /** Whether the request carries an unexpired pass of `pollId`. */
    holds(ctx: Context, pollId: string, now: number = Date.now()): boolean {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(ctx.cookies.get(RESULTS_PASS_COOKIE) ?? '');
      if (!match) return false;
      const expires = Number(match[1]);
      if (expires * SECOND_MS <= now) return false;
      const expected = Buffer.from(sign(pollId, expires));
      const presented = Buffer.from(match[2]!);
      return presented.length === expected.length && timingSafeEqual(presented, expected);
    },
  };
}

/** Who asks for a poll's results, as far as its results' visibility rule needs to know (see @logovote/models' resultsWithheldFrom). */
export interface ResultsViewerClues {
  /** The X-Creator-Token header, if sent. */
  creatorToken: string | undefined;
  /** Whether the request carries a valid results pass of the poll. */
  resultsPass: boolean;
  /** What finds the viewer among the poll's voters, as the votes service finds them: the voter cookie, else the fingerprint on this network. */
  voter: { cookieHash: string | undefined; fingerprint: string | undefined; ipHash: string };
}

/** The clues a request gives about its viewer, for a results read of a poll; none is required, a malformed one counts as absent. */
export function resultsViewerClues(secrets: { csrfSecret: string; ipHashSalt: string }) {
  const passes = resultsPasses(secrets.csrfSecret);
  const hashCookie = voterCookieHasher(secrets.ipHashSalt);
  return (ctx: Context, pollId: string): ResultsViewerClues => {
    const cookie = presentVoterCookie(ctx);
    const fingerprint = Fingerprint.safeParse(ctx.get(FINGERPRINT_HEADER));
    return {
      creatorToken: ctx.get(CREATOR_TOKEN_HEADER) || undefined,
      resultsPass: passes.holds(ctx, pollId),
      voter: {
        cookieHash: cookie ? hashCookie(pollId, cookie) : undefined,
        fingerprint: fingerprint.success ? fingerprint.data : undefined,
        ipHash: hashIp(secrets.ipHashSalt, ctx.ip),
      },
    };
  };
}
