import { objectStoreEnv, parseEnv, portEnv, serviceEnv } from '@logovote/service-kit';

const sessionsEnv = serviceEnv.extend(portEnv(4001).shape).extend(objectStoreEnv.shape);

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  return parseEnv(sessionsEnv, env);
}
