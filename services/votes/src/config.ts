import { parseEnv, portEnv, serviceEnv } from '@logovote/service-kit';

const votesEnv = serviceEnv.extend(portEnv(4002).shape);

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(votesEnv, env);
}
