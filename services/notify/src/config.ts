import { parseEnv, portEnv, serviceEnv } from '@logovote/service-kit';

const notifyEnv = serviceEnv.extend(portEnv(4004).shape);

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(notifyEnv, env);
}
