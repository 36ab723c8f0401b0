import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import {
  CREATOR_TOKEN_HEADER,
  FINGERPRINT_HEADER,
  Fingerprint,
  RESULTS_PASS_COOKIE,
  RESULTS_PASS_TTL_SECONDS,
  SECOND_MS,
} from '@logovote/contracts';
import { derivedKey, hashIp } from './client-address';
import { voterPasses } from './voter-pass';

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
  /** What finds the viewer among the poll's voters, as the votes service finds them: the voter pass, else the fingerprint on this network. */
  voter: { passVoter: string | undefined; fingerprint: string | undefined; ipHash: string };
}

/** The clues a request gives about its viewer, for a results read of a poll; none is required, a malformed one counts as absent. */
export function resultsViewerClues(secrets: { csrfSecret: string; ipHashSalt: string }) {
  const resultsPassesOf = resultsPasses(secrets.csrfSecret);
  const voterPassesOf = voterPasses(secrets.ipHashSalt);
  return (ctx: Context, pollId: string): ResultsViewerClues => {
    const fingerprint = Fingerprint.safeParse(ctx.get(FINGERPRINT_HEADER));
    return {
      creatorToken: ctx.get(CREATOR_TOKEN_HEADER) || undefined,
      resultsPass: resultsPassesOf.holds(ctx, pollId),
      voter: {
        passVoter: voterPassesOf.voterOf(ctx, pollId),
        fingerprint: fingerprint.success ? fingerprint.data : undefined,
        ipHash: hashIp(secrets.ipHashSalt, ctx.ip),
      },
    };
  };
}
