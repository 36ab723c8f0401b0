import mongoose from 'mongoose';
import { isDuplicateKey } from './tally-ledger';

/**
 * Runs a data migration once per database: a marker in `migrations` records that it finished. The task
 * must be safe to run again (a process that stops midway runs it again at its next start) and beside
 * live traffic (several replicas may run it at once).
 */
export async function runOnce(name: string, task: () => Promise<number>): Promise<number> {
  const markers = mongoose.connection.collection<{ _id: string; at: Date }>('migrations');
  if (await markers.findOne({ _id: name })) return 0;
  const done = await task();
  try {
    await markers.insertOne({ _id: name, at: new Date() });
  } catch (error: unknown) {
    if (!isDuplicateKey(error)) throw error;
  }
  return done;
}
