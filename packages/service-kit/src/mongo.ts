import mongoose from 'mongoose';
import type { Logger } from 'pino';
import type { ReadinessCheck } from './health';

/** Connects the process-wide mongoose connection; the driver reconnects by itself after outages. */
export async function connectMongo(uri: string, logger: Logger): Promise<typeof mongoose> {
  mongoose.set('strictQuery', true);
  mongoose.connection.on('disconnected', () => logger.warn('MongoDB disconnected'));
  mongoose.connection.on('reconnected', () => logger.info('MongoDB reconnected'));
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 5000 });
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
    await db.admin().command({ ping: 1 });
  },
};
