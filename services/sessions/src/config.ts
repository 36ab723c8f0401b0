import { HOUR_MS, POLL_RETENTION_DAYS } from '@logovote/contracts';
import { moderationEnv } from '@logovote/media-pipeline';
import {
  csrfEnv,
  ipHashSaltEnv,
  objectStoreEnv,
  parseEnv,
  portEnv,
  publicOriginEnv,
  serviceEnv,
  trustedProxyEnv,
  uploadRateEnv,
  uploadRateLimits,
  type UploadRateLimits,
} from '@logovote/service-kit';
import { z } from 'zod';
import type { CreationLimits } from './polls/create-poll';

/** What one client may ask of the service: poll creations, how slowly an upload may come. */
const requestLimitsEnv = trustedProxyEnv.extend(uploadRateEnv.shape).extend({
  /**
   * Poll creation requests one network address may make in any hour (a sliding hour): more than a creator
   * who starts over a few times needs, few enough that one address cannot keep the moderation busy.
   */
  POLL_CREATIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  /** Poll creation requests one network address may make in any 24 hours: bounds what one address stores in a day. */
  POLL_CREATIONS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(1).default(30),
});

const sessionsEnv = serviceEnv
  .extend(portEnv(4001).shape)
  .extend(objectStoreEnv.shape)
  .extend(csrfEnv.shape)
  .extend(ipHashSaltEnv.shape)
  .extend(publicOriginEnv.shape)
  .extend(moderationEnv.shape)
  .extend(requestLimitsEnv.shape)
  .extend({
    /** Days without activity after which a poll, its votes and its images are deleted (fractions allowed). */
    RETENTION_DAYS: z.coerce.number().positive().default(POLL_RETENTION_DAYS),
    RETENTION_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(HOUR_MS),
  });

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(sessionsEnv, env);
}

export interface RequestLimits {
  creations: CreationLimits;
  uploadRate: UploadRateLimits;
  /** Proxies in front of the service that append to X-Forwarded-For: the client's address is the one they saw. */
  trustedProxyHops: number;
}

/** The request limits of a configuration (the defaults when none is given). */
export function requestLimits(config: z.infer<typeof requestLimitsEnv> = requestLimitsEnv.parse({})): RequestLimits {
  return {
    creations: { perHour: config.POLL_CREATIONS_PER_ADDRESS_PER_HOUR, perDay: config.POLL_CREATIONS_PER_ADDRESS_PER_DAY },
    uploadRate: uploadRateLimits(config),
    trustedProxyHops: config.TRUSTED_PROXY_HOPS,
  };
}
