import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { DAY_MS } from '@logovote/contracts';
import { derivedKey } from './client-address';

/**
 * The voter pass (docs/api/votes-and-notify.md, "Who is one voter"): an HttpOnly cookie on one poll's API
 * paths naming the voter this browser voted as in that poll, with an HMAC over it. The browser carries its
 * own binding, so finding a voter by it costs no lookup and binding it no write, and nothing links one
 * browser's voters in two polls.
 */
export const VOTER_PASS_COOKIE = 'lv_voter_pass';
/** Browsers cap cookie lifetimes at 400 days; a poll rarely lives that long. */
const VOTER_PASS_MAX_AGE_MS = 400 * DAY_MS;
const PASS_VALUE = /^([A-Za-z0-9_-]{1,200})\.([A-Za-z0-9_-]{43})$/;

/** Passes signed with a key derived from `secret` (the votes service's IP_HASH_SALT), under a label of their own. */
export function voterPasses(secret: string) {
  const key = derivedKey(secret, 'voter-pass');
  const sign = (pollId: string, voterKey: string) => createHmac('sha256', key).update(`${pollId}\n${voterKey}`).digest('base64url');
  return {
    /** Sets the pass naming `voterKey` in `pollId` on the answer. */
    issue(ctx: Context, pollId: string, voterKey: string): void {
      ctx.cookies.set(VOTER_PASS_COOKIE, `${Buffer.from(voterKey).toString('base64url')}.${sign(pollId, voterKey)}`, {
        httpOnly: true,
        sameSite: 'lax',
        secure: ctx.secure,
        path: `/api/sessions/${pollId}`,
        maxAge: VOTER_PASS_MAX_AGE_MS,
        overwrite: true,
      });
    },
    /** The voter a valid pass of `pollId` on the request names, if it carries one. */
    voterOf(ctx: Context, pollId: string): string | undefined {
      const match = PASS_VALUE.exec(ctx.cookies.get(VOTER_PASS_COOKIE) ?? '');
      if (!match) return undefined;
      const voterKey = Buffer.from(match[1]!, 'base64url').toString('utf8');
      // Signed with its poll: a pass of another poll names nobody here.
      const expected = Buffer.from(sign(pollId, voterKey));
      const presented = Buffer.from(match[2]!);
      return presented.length === expected.length && timingSafeEqual(presented, expected) ? voterKey : undefined;
    },
  };
}
