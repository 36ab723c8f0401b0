import { moderationEnv } from '@logovote/media-pipeline';
import { objectStoreEnv, parseEnv, portEnv, serviceEnv, uploadRateEnv } from '@logovote/service-kit';

const mediaEnv = serviceEnv
  .extend(portEnv(4003).shape)
  .extend(objectStoreEnv.shape)
  .extend(moderationEnv.shape)
  .extend(uploadRateEnv.shape);

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(mediaEnv, env);
}
