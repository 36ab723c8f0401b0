import { POLL_RETENTION_DAYS } from '@logovote/contracts';
import { moderationEnv } from '@logovote/media-pipeline';
import { csrfEnv, objectStoreEnv, parseEnv, portEnv, publicOriginEnv, serviceEnv } from '@logovote/service-kit';
import { z } from 'zod';

const sessionsEnv = serviceEnv
  .extend(portEnv(4001).shape)
  .extend(objectStoreEnv.shape)
  .extend(csrfEnv.shape)
  .extend(publicOriginEnv.shape)
  .extend(moderationEnv.shape)
  .extend({
    /** Days without activity after which a poll, its votes and its images are deleted (fractions allowed). */
    RETENTION_DAYS: z.coerce.number().positive().default(POLL_RETENTION_DAYS),
    RETENTION_SWEEP_INTERVAL_MS: z.coerce
      .number()
      .int()
      .positive()
      .default(60 * 60 * 1000),
  });

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(sessionsEnv, env);
}
