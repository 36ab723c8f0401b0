import mongoose from 'mongoose';
import type { Logger } from 'pino';
import type { ReadinessCheck } from './health';

/**
 * While the database is unreachable an operation waits this long for it, then fails (a 503 for the client):
 * long enough to ride out a replica-set election or a restart, short enough that nobody stares at a spinner.
 */
const SERVER_SELECTION_TIMEOUT_MS = 3000;
/**
 * How often the driver checks the server. It also bounds how long the readiness check (which trusts the
 * connection's state) keeps saying "unavailable" after the database is back: the driver's default is 10 s.
 */
const HEARTBEAT_FREQUENCY_MS = 2000;

const PING_TIMEOUT_MS = 1500;

/** The driver's own conversation with the server, not work a request or a background job asked for. */
const HOUSEKEEPING_COMMANDS = new Set(['hello', 'ismaster', 'ping', 'endsessions']);

const commandCounts = new Map<string, number>();

/** Counts one database command this process started (find, insert, update, aggregate...), housekeeping aside. */
export function countDbCommand(commandName: string): void {
  if (HOUSEKEEPING_COMMANDS.has(commandName.toLowerCase())) return;
  commandCounts.set(commandName, (commandCounts.get(commandName) ?? 0) + 1);
}

/** The database commands this process started so far, by command name. */
export function dbCommandCounts(): Record<string, number> {
  return Object.fromEntries(commandCounts);
}

/** Connects the process-wide mongoose connection; the driver reconnects by itself after outages. */
export async function connectMongo(uri: string, logger: Logger): Promise<typeof mongoose> {
  mongoose.set('strictQuery', true);
  mongoose.connection.on('disconnected', () => logger.warn('MongoDB disconnected'));
  mongoose.connection.on('reconnected', () => logger.info('MongoDB reconnected'));
  // Command monitoring lets /metrics (and the operation budget test) count the database operations the
  // service's work costs, on any MongoDB-protocol store alike.
  await mongoose.connect(uri, {
    serverSelectionTimeoutMS: SERVER_SELECTION_TIMEOUT_MS,
    heartbeatFrequencyMS: HEARTBEAT_FREQUENCY_MS,
    monitorCommands: true,
  });
  mongoose.connection.getClient().on('commandStarted', (event) => countDbCommand(event.commandName));
  // Every model's collection and indexes exist before the first request: unique indexes decide races,
  // and on FerretDB creating a collection while requests hold every database connection can deadlock.
  await Promise.all(Object.values(mongoose.models).map((model) => model.init()));
  logger.info('MongoDB connected');
  return mongoose;
}

export async function disconnectMongo(): Promise<void> {
  await mongoose.disconnect();
}

export const mongoReadiness: ReadinessCheck = {
  name: 'mongodb',
  async check() {
    const db = mongoose.connection.db;
    if (mongoose.connection.readyState !== mongoose.ConnectionStates.connected || !db) throw new Error('not connected');
    // Shorter than the readiness check's own limit: a database that does not answer is unavailable,
    // whether the driver knows it yet (refused connection) or is still waiting for it (a server shutting
    // down that holds its connections open).
    let timer: NodeJS.Timeout | undefined;
    const silence = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`MongoDB did not answer a ping within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
    });
    try {
      await Promise.race([db.admin().command({ ping: 1 }, { timeoutMS: PING_TIMEOUT_MS }), silence]);
    } finally {
      clearTimeout(timer);
    }
  },
};
