import type { Server } from 'node:http';
import type Koa from 'koa';
import type { Logger } from 'pino';

export interface RunOptions {
  app: Koa;
  host: string;
  port: number;
  logger: Logger;
  /** Closes the service's connections after the HTTP server stops accepting requests. */
  onShutdown: () => Promise<void>;
}

const FORCED_EXIT_MS = 10_000;

/** Listens and shuts down gracefully on SIGTERM/SIGINT: finish in-flight requests, then close connections. */
export function runServer(options: RunOptions): Server {
  const { app, host, port, logger } = options;
  const server = app.listen(port, host, () => logger.info({ host, port }, 'listening'));
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, FORCED_EXIT_MS).unref();
    server.close(() => {
      options
        .onShutdown()
        .then(() => process.exit(0))
        .catch((error: unknown) => {
          logger.error({ err: error }, 'error during shutdown');
          process.exit(1);
        });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return server;
}

/** Start-up failures (bad configuration, unreachable database) end the process with the reason. */
export function exitOnStartupFailure(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
