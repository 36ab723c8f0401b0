import { moderationEnv } from '@logovote/media-pipeline';
import { objectStoreEnv, parseEnv, portEnv, serviceEnv } from '@logovote/service-kit';

const mediaEnv = serviceEnv.extend(portEnv(4003).shape).extend(objectStoreEnv.shape).extend(moderationEnv.shape);

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(mediaEnv, env);
}
