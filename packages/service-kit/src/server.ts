import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from 'pino';

export interface RunOptions {
  app: Koa;
  host: string;
  port: number;
  logger: Logger;
  /** Closes the service's connections after the HTTP server stops accepting requests. */
  onShutdown: () => Promise<void>;
  /**
   * Called as soon as shutdown starts: ends responses that never end by themselves (live results' event
   * streams), which the server would otherwise wait for until the forced exit.
   */
  endLongResponses?: () => void;
}

const FORCED_EXIT_MS = 10_000;

/** What Node's HTTP parser refuses before Koa sees the request; anything else it refuses is a 400. */
const PARSER_REFUSALS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'Request headers too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Request timeout' },
};

/**
 * Requests Node's HTTP parser refuses (headers over its 16 KB limit, malformed syntax) are answered with a
 * JSON message like every other error, instead of Node's bare status line.
 */
export function answerClientErrorsWithJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // As Node's own handler: never write into a response already under way on this connection.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = PARSER_REFUSALS[error.code ?? ''] ?? { status: 400, message: 'Bad request' };
    const body = JSON.stringify({ message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** Listens and shuts down gracefully on SIGTERM/SIGINT: finish in-flight requests, then close connections. */
export function runServer(options: RunOptions): Server {
  const { app, host, port, logger } = options;
  const server = app.listen(port, host, () => logger.info({ host, port }, 'listening'));
  // The gateway keeps idle upstream connections for up to 60 s; closing them sooner from this side races
  // with a request nginx is already sending on one (a reset POST is not retried), so outlast it.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  answerClientErrorsWithJson(server);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('graceful shutdown timed out; exiting');
      process.exit(1);
    }, FORCED_EXIT_MS).unref();
    options.endLongResponses?.();
    server.close(() => {
      options
        .onShutdown()
        .then(() => process.exit(0))
        .catch((error: unknown) => {
          logger.error({ err: error }, 'error during shutdown');
          process.exit(1);
        });
    });
    // Keep-alive connections outlive requests by 65 s: close each one as soon as its last request is done.
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 250).unref();
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
