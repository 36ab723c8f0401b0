import { z } from 'zod';
import { csrfEnv, parseEnv, portEnv, serviceEnv, trustedProxyEnv } from '@logovote/service-kit';

const votesEnv = serviceEnv
  .extend(portEnv(4002).shape)
  .extend(csrfEnv.shape)
  .extend(trustedProxyEnv.shape)
  .extend({
    /** Key of the HMAC that turns a voter's address into the stored ipHash. */
    IP_HASH_SALT: z.string().min(32, 'must be at least 32 characters'),
    /** Distinct voters one network address may add to one poll; high enough for an office or a classroom. */
    VOTES_PER_IP_PER_POLL: z.coerce.number().int().min(1).default(50),
    /**
     * The first new voter of an address in a poll who must solve a proof of work (step-up): more than a
     * household brings. Voters before it follow the spec's contract unchanged.
     */
    PROOF_OF_WORK_FROM_VOTER: z.coerce.number().int().min(1).default(6),
    /** PBKDF2-SHA-256 iterations of one attempt at a challenge. */
    PROOF_OF_WORK_ITERATIONS: z.coerce.number().int().min(1).default(5_000),
    /**
     * Attempts a challenge takes on average (at most twice as many): with the default iterations, about
     * 0.3 s of one core of a script's time per extra voter (docs/performance.md).
     */
    PROOF_OF_WORK_ATTEMPTS: z.coerce.number().int().min(1).default(275),
    /** Reports from distinct addresses since its last review that hide a poll pending review (docs/moderation.md). */
    REPORTS_TO_HIDE: z.coerce.number().int().min(1).default(3),
    /** Reports one network address may make in an hour, across all polls (a sliding hour). */
    REPORTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  });

export type Config = z.infer<typeof votesEnv>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(votesEnv, env);
}
