import { z } from 'zod';
import { csrfEnv, ipHashSaltEnv, parseEnv, portEnv, serviceEnv, trustedProxyEnv } from '@logovote/service-kit';

const votesEnv = serviceEnv
  .extend(portEnv(4002).shape)
  .extend(csrfEnv.shape)
  .extend(trustedProxyEnv.shape)
  .extend(ipHashSaltEnv.shape)
  .extend({
    /**
     * A last resort: distinct voters one network address may add to one poll, whatever proofs of work it
     * pays. Far above what the rising cost lets a script reach cheaply (docs/api/votes-and-notify.md).
     */
    VOTES_PER_IP_PER_POLL: z.coerce.number().int().min(1).default(1000),
    /**
     * The first new voter of an address in a poll who must solve a proof of work (step-up): more than a
     * household brings. Voters before it follow the spec's contract unchanged.
     */
    PROOF_OF_WORK_FROM_VOTER: z.coerce.number().int().min(1).default(6),
    /** Voters per proof-of-work level: each level past the free voters costs more than the one before. */
    PROOF_OF_WORK_VOTERS_PER_LEVEL: z.coerce.number().int().min(1).default(25),
    /** PBKDF2-SHA-256 iterations of one attempt at a challenge. */
    PROOF_OF_WORK_ITERATIONS: z.coerce.number().int().min(1).default(5_000),
    /** Attempts a challenge of the first level takes on average (at most twice as many). */
    PROOF_OF_WORK_ATTEMPTS: z.coerce.number().int().min(1).default(300),
    /** Attempts each further level adds on average (docs/performance.md measures what they cost). */
    PROOF_OF_WORK_ATTEMPTS_PER_LEVEL: z.coerce.number().int().min(0).default(25),
    /** For a poll whose creator expects its voters on one shared network: the first voter of an address who pays. */
    SHARED_NETWORK_PROOF_OF_WORK_FROM_VOTER: z.coerce.number().int().min(1).default(51),
    /** For such a poll: attempts each further level adds on average (its first level costs PROOF_OF_WORK_ATTEMPTS). */
    SHARED_NETWORK_PROOF_OF_WORK_ATTEMPTS_PER_LEVEL: z.coerce.number().int().min(0).default(10),
    /** Reports from distinct addresses since its last review that hide a poll pending review (docs/moderation.md). */
    REPORTS_TO_HIDE: z.coerce.number().int().min(1).default(3),
    /** Reports one network address may make in an hour, across all polls (a sliding hour). */
    REPORTS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  });

export type Config = z.infer<typeof votesEnv>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(votesEnv, env);
}
