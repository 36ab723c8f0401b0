import { z } from 'zod';

/** Every 4xx/5xx body the services send. */
export const ErrorBody = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Poll ids are 16 random base64url characters: unguessable, URL-safe. */
export const SessionId = z.string().regex(/^[A-Za-z0-9_-]{16}$/, 'Invalid session id');
export type SessionId = z.infer<typeof SessionId>;

/** Spec section 3: the first 16 hex characters of a SHA-256 hash. */
export const Fingerprint = z.string().regex(/^[0-9a-f]{16}$/, 'X-Client-Fingerprint must be 16 lowercase hexadecimal characters');
export type Fingerprint = z.infer<typeof Fingerprint>;

export const PaymentPlan = z.enum(['free', 'paid', 'bulk']);
export type PaymentPlan = z.infer<typeof PaymentPlan>;

/** Header names of spec section 6. */
export const CSRF_HEADER = 'X-CSRF-Token';
export const FINGERPRINT_HEADER = 'X-Client-Fingerprint';
/** A solved proof-of-work challenge for a vote (base64 of a VoteProof's JSON), sent when a vote was answered 428. */
export const VOTE_PROOF_HEADER = 'X-Vote-Proof';

export const Health = z.object({ status: z.literal('ok'), service: z.string() });
export type Health = z.infer<typeof Health>;

export const Readiness = z.object({
  status: z.enum(['ready', 'unavailable']),
  service: z.string(),
  checks: z.record(z.string(), z.object({ ok: z.boolean(), error: z.string().optional() })),
});
export type Readiness = z.infer<typeof Readiness>;
