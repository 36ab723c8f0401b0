import { createHmac } from 'node:crypto';

/** The gateway's back-off on failed admin sign-ins (its configuration, sent with every check: see the router). */
export interface AdminLoginPolicy {
  /** Failed sign-ins an address may make before the first back-off. */
  freeFailures: number;
  /** The first back-off, in seconds; each further failure doubles it. */
  firstBackoffSeconds: number;
  /** The longest back-off, in seconds. */
  maxBackoffSeconds: number;
}

/**
 * Seconds an address must wait before its next sign-in attempt (0: it may try now), from its failures of the
 * window, oldest first. The failure that uses up the free ones starts the first back-off; each failure after it
 * doubles the back-off, up to the longest, always counted from the latest failure.
 */
export function backoffSeconds(failures: readonly Date[], policy: AdminLoginPolicy, now: Date): number {
  const beyondFree = failures.length - policy.freeFailures;
  const latest = failures[failures.length - 1];
  if (beyondFree < 0 || latest === undefined) return 0;
  const backoffMs = Math.min(policy.maxBackoffSeconds, policy.firstBackoffSeconds * 2 ** beyondFree) * 1000;
  const remainingMs = latest.getTime() + backoffMs - now.getTime();
  return remainingMs > 0 ? Math.ceil(remainingMs / 1000) : 0;
}

/**
 * The keyed hashes failures are stored under: the client's address, and a credential as that address tried it.
 * Keyed by the anti-forgery secret under a label of their own, so no other hash can stand for them.
 */
export function failureKeys(secret: string): {
  address(address: string): string;
  credential(address: string, authorization: string): string;
} {
  const key = createHmac('sha256', secret).update('admin-login-failure').digest();
  const hash = (text: string) => createHmac('sha256', key).update(text).digest('base64url');
  return {
    address: (address) => hash(`address\n${address}`),
    credential: (address, authorization) => hash(`credential\n${address}\n${authorization}`),
  };
}
