import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { adminLoginFailuresOf, recordAdminLoginFailure } from '@logovote/models';
import { parseInput } from '@logovote/service-kit';
import { backoffSeconds, failureKeys, type AdminLoginPolicy } from '../admin-login/backoff';

/** The header the gateway writes the client's address in (whatever a client sent under that name is replaced). */
const CLIENT_ADDRESS_HEADER = 'X-Admin-Login-Address';

/** The gateway's back-off policy, which it sends with each request (its placeholders ADMIN_LOGIN_*). */
const PolicyQuery = z
  .object({
    free: z.coerce.number().int().min(1),
    backoff: z.coerce.number().int().min(1),
    max: z.coerce.number().int().min(1),
  })
  .transform(({ free, backoff, max }): AdminLoginPolicy => ({ freeFailures: free, firstBackoffSeconds: backoff, maxBackoffSeconds: max }));
const ClientAddress = z.union([z.ipv4(), z.ipv6()], { error: `${CLIENT_ADDRESS_HEADER}: not an IP address` });

export const ADMIN_CREDENTIALS_REQUIRED = 'Admin credentials required';
export const ADMIN_LOGIN_BACKOFF = 'Too many failed admin sign-ins from this address. Try again later.';

/**
 * The failed-sign-in back-off of the admin area (SECURITY.md). The gateway checks the admin's credentials
 * itself (HTTP basic auth) on every admin path; these internal endpoints, which the gateway never routes a
 * client to, keep the count it cannot keep across its restarts and replicas:
 * - GET /internal/admin-login/check (the gateway's auth_request once the credentials are right): 204, or 403
 *   with Retry-After while the address is backing off;
 * - POST /internal/admin-login/failures (when the credentials are wrong or missing): records a wrong credential
 *   and answers 401, or 429 with Retry-After while the address is backing off (nothing is recorded then, and
 *   the answer is the same whether the credential was right or wrong).
 */
export function adminLoginRouter(secret: string): Router {
  const router = new Router({ prefix: '/internal/admin-login' });
  const keys = failureKeys(secret);

  const attempt = async (ctx: Context, now: Date) => {
    const policy = parseInput(PolicyQuery, ctx.query);
    const address = parseInput(ClientAddress, ctx.get(CLIENT_ADDRESS_HEADER));
    const addressKey = keys.address(address);
    return { address, addressKey, wait: backoffSeconds(await adminLoginFailuresOf(addressKey, now), policy, now) };
  };

  router.get('/check', async (ctx) => {
    const { wait } = await attempt(ctx, new Date());
    ctx.set('Cache-Control', 'no-store');
    if (wait === 0) {
      ctx.status = 204;
      return;
    }
    ctx.status = 403;
    ctx.set('Retry-After', String(wait));
    ctx.body = { message: ADMIN_LOGIN_BACKOFF };
  });

  router.post('/failures', async (ctx) => {
    const now = new Date();
    const { address, addressKey, wait } = await attempt(ctx, now);
    ctx.set('Cache-Control', 'no-store');
    if (wait > 0) {
      ctx.status = 429;
      ctx.set('Retry-After', String(wait));
      ctx.body = { message: ADMIN_LOGIN_BACKOFF };
      return;
    }
    // A request without credentials is a browser asking what to do, not a guess.
    const authorization = ctx.get('Authorization');
    if (authorization) await recordAdminLoginFailure(addressKey, keys.credential(address, authorization), now);
    ctx.status = 401;
    ctx.body = { message: ADMIN_CREDENTIALS_REQUIRED };
  });

  return router;
}
