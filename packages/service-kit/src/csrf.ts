import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { CSRF_HEADER, DAY_MS } from '@logovote/contracts';
import { HttpError } from './errors';

/**
 * Signed double-submit anti-forgery tokens. The browser holds a random nonce in an HttpOnly cookie;
 * the token for a poll is HMAC(secret, pollId | nonce). A forged cross-site request carries the
 * cookie but cannot read a token, and a token stolen without the cookie is useless. Any service
 * holding the secret verifies tokens without shared state.
 */
export const CSRF_COOKIE = 'lv_csrf';
const COOKIE_MAX_AGE_MS = 30 * DAY_MS;
const NONCE = /^[A-Za-z0-9_-]{22,64}$/;

export const csrfEnv = z.object({ CSRF_SECRET: z.string().min(32, 'must be at least 32 characters') });

export const CSRF_REJECTED = 'Invalid or missing anti-forgery token. Reload the page and try again.';

function sign(secret: string, sessionId: string, nonce: string): string {
  return createHmac('sha256', secret).update(`${sessionId}|${nonce}`).digest('base64url');
}

function cookieNonce(ctx: Context): string | undefined {
  const nonce = ctx.cookies.get(CSRF_COOKIE);
  return nonce && NONCE.test(nonce) ? nonce : undefined;
}

/** The token for this poll, setting the browser's nonce cookie first if it has none. */
export function issueCsrfToken(ctx: Context, secret: string, sessionId: string): string {
  let nonce = cookieNonce(ctx);
  if (!nonce) {
    nonce = randomBytes(18).toString('base64url');
    ctx.cookies.set(CSRF_COOKIE, nonce, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      path: '/',
      maxAge: COOKIE_MAX_AGE_MS,
      overwrite: true,
    });
  }
  return sign(secret, sessionId, nonce);
}

export function isValidCsrfToken(ctx: Context, secret: string, sessionId: string): boolean {
  const nonce = cookieNonce(ctx);
  const presented = ctx.get(CSRF_HEADER);
  if (!nonce || !presented) return false;
  const expected = Buffer.from(sign(secret, sessionId, nonce));
  const actual = Buffer.from(presented);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Rejects writes to `/.../:sessionId/...` without a valid token for that poll (403). */
export function requireCsrf(secret: string): Middleware {
  return async (ctx, next) => {
    const sessionId = (ctx as Context & { params?: Record<string, string> }).params?.sessionId;
    if (!sessionId || !isValidCsrfToken(ctx, secret, sessionId)) throw new HttpError(403, CSRF_REJECTED);
    await next();
  };
}
