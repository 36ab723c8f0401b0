import { z } from 'zod';
import { csrfEnv, parseEnv, portEnv, serviceEnv } from '@logovote/service-kit';

const votesEnv = serviceEnv
  .extend(portEnv(4002).shape)
  .extend(csrfEnv.shape)
  .extend({
    /** Key of the HMAC that turns a voter's address into the stored ipHash. */
    IP_HASH_SALT: z.string().min(32, 'must be at least 32 characters'),
    /** Distinct voters one network address may add to one poll; high enough for an office or a classroom. */
    VOTES_PER_IP_PER_POLL: z.coerce.number().int().min(1).default(50),
    /** Reverse proxies in front of the service that append to X-Forwarded-For (the gateway: 1); entries left of theirs are the client's and untrusted. */
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(1),
  });

export type Config = z.infer<typeof votesEnv>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(votesEnv, env);
}
