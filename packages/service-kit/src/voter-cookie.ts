import { createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { DAY_MS } from '@logovote/contracts';

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
