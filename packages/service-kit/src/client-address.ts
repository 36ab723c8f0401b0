import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { z } from 'zod';

/** Settings of services that count or key anything by the client's network address. */
export const trustedProxyEnv = z.object({
  /** Reverse proxies in front of the service that append to X-Forwarded-For (the gateway: 1); entries left of theirs are the client's and untrusted. */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(1),
});

/** Key of the HMAC that turns a voter's address into the stored ipHash, and of the voter passes' signatures. */
export const ipHashSaltEnv = z.object({ IP_HASH_SALT: z.string().min(32, 'must be at least 32 characters') });

const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The eight 16-bit groups of an IPv6 address, '::' expanded, or undefined for a form it does not read. */
function ipv6Groups(address: string): string[] | undefined {
  const [head = '', tail, ...rest] = address.split('::');
  if (rest.length > 0) return undefined;
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group)) ? groups.map((group) => group.toLowerCase().padStart(4, '0')) : undefined;
}

/**
 * What counts as one network address for a per-address limit. An IPv4 address (also when written
 * IPv4-mapped) is itself; an IPv6 address counts by its /64 prefix, the block one subscriber or one
 * office LAN gets, so rotating through privacy addresses does not make a device several voters.
 */
export function networkOf(ip: string): string {
  const mapped = IPV4_MAPPED.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip.split('%')[0] ?? ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}

/** HMAC-SHA256 of the client's network under a secret key: stored instead of the address. */
export function hashIp(salt: string | Buffer, ip: string): string {
  return createHmac('sha256', salt).update(networkOf(ip)).digest('hex');
}

/**
 * A key of its own for one use of a configured secret (HMAC-SHA256 of the use's label under it), so one
 * secret can key several kinds of stored hashes without one kind being comparable with another.
 */
export function derivedKey(secret: string, label: string): Buffer {
  return createHmac('sha256', secret).update(label).digest();
}
