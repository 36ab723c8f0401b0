import type Koa from 'koa';
import type { Logger } from 'pino';
import { createLogger } from './logger';
import { exitOnStartupFailure, runServer } from './server';

interface BaseConfig {
  HOST: string;
  PORT: number;
  LOG_LEVEL: string;
}

export interface BootOptions<Config extends BaseConfig> {
  service: string;
  loadConfig: () => Config;
  /** Connects dependencies and builds the app; returns how to release them on shutdown. */
  start: (config: Config, logger: Logger) => Promise<{ app: Koa; onShutdown: () => Promise<void>; endLongResponses?: () => void }>;
}

/** The whole of a service's `server.ts`: configuration, connections, listening, graceful shutdown. */
export function bootService<Config extends BaseConfig>(options: BootOptions<Config>): void {
  let config: Config;
  try {
    config = options.loadConfig();
  } catch (error: unknown) {
    exitOnStartupFailure(error);
  }
  const logger = createLogger(options.service, config.LOG_LEVEL);
  options
    .start(config, logger)
    .then((started) => runServer({ ...started, host: config.HOST, port: config.PORT, logger }))
    .catch((error: unknown) => {
      logger.fatal({ err: error }, 'start-up failed');
      exitOnStartupFailure(error);
    });
}
