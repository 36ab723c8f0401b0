import { z } from 'zod';

/**
 * How a poll's voting page orders its logos: 'fixed' shows them in upload order to everyone (the spec's
 * page, and what a creation that does not ask gets); 'shuffled' gives each voter an order of their own,
 * so that no logo gains from always being seen first (docs/fair-order.md).
 */
export const LogoOrder = z.enum(['fixed', 'shuffled']);
export type LogoOrder = z.infer<typeof LogoOrder>;

/**
 * What a voter's order is drawn from: the gateway's `lv_order` cookie (32 hexadecimal characters from
 * nginx's $request_id), or the voter's fingerprint where that cookie is missing.
 */
export const VoterOrderSeed = z.string().regex(/^[0-9a-f]{16,64}$/, 'voter must be 16 to 64 lowercase hexadecimal characters');
export type VoterOrderSeed = z.infer<typeof VoterOrderSeed>;

export { VOTER_ORDER_COOKIE, voterLogoOrder } from './voter-order';
