import { MINUTE_MS } from '@logovote/contracts';
import { PollModel, pollsInState, readPollContact, readPollStatus, recordPollActivity, voteLedger } from '@logovote/models';
import { runInBackground, type Logger, type ObjectStore } from '@logovote/service-kit';
import { deletePoll } from './delete-poll';

/** A poll still 'creating' after this long was abandoned by a process that stopped midway. */
const ABANDONED_CREATION_MS = 15 * MINUTE_MS;
const BATCH = 100;

export interface RetentionOptions {
  store: ObjectStore;
  logger: Logger;
  /** Time without activity after which a poll is deleted. */
  retentionMs: number;
}

/**
 * A poll's newest activity: its own (creation, plan) and what the votes and notify services record in
 * their collections (the newest vote, the newest request for the links).
 */
async function lastActivity(pollId: string, own: Date): Promise<Date> {
  const [voted, contact] = await Promise.all([voteLedger.lastChangeAt(pollId), readPollContact(pollId)]);
  return new Date(Math.max(own.getTime(), voted?.getTime() ?? 0, contact?.lastActivityAt.getTime() ?? 0));
}

/**
 * One pass of the retention sweep: deletes polls inactive for longer than the retention period, and
 * finishes creations and deletions a stopped process left halfway. FerretDB has no TTL indexes, so
 * this is the application's own (and behaves the same on MongoDB). Resolves with the deleted ids.
 *
 * Deletions under way and creations under way are found by their status (one equality lookup each, few
 * polls). A poll can be inactive for the retention period only once it is older than that: those polls'
 * statuses are read one by one (an equality lookup each), the newest of their activity copied into the
 * status or the poll deleted.
 */
export async function sweepPolls(options: RetentionOptions): Promise<string[]> {
  const now = Date.now();
  const cutoff = new Date(now - options.retentionMs);
  const deleted: string[] = [];
  const remove = async (pollId: string) => {
    const removed = await deletePoll(options.store, pollId, { resume: true });
    if (!removed) return;
    options.logger.info({ pollId, removed }, 'retention: poll deleted');
    deleted.push(pollId);
  };
  const sweep = async (pollId: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error: unknown) {
      // Left as it is; the next sweep tries again.
      options.logger.error({ err: error, pollId }, 'retention: could not delete poll');
    }
  };
  for (const { pollId } of await pollsInState('deleting')) await sweep(pollId, () => remove(pollId));
  for (const { pollId, since } of await pollsInState('creating'))
    if (since.getTime() < now - ABANDONED_CREATION_MS) await sweep(pollId, () => remove(pollId));
  const attempted: string[] = [];
  for (;;) {
    const old = await PollModel.find({ createdAt: { $lt: cutoff }, _id: { $nin: attempted } }, { _id: 1 })
      .limit(BATCH)
      .lean();
    if (old.length === 0) return deleted;
    for (const { _id: pollId } of old) {
      attempted.push(pollId);
      await sweep(pollId, async () => {
        const status = await readPollStatus(pollId);
        if (status.state !== 'active' || status.lastActivityAt >= cutoff) return;
        // Votes and e-mails are recorded by their own services: copied here, they keep the poll.
        const activity = await lastActivity(pollId, status.lastActivityAt);
        if (activity >= cutoff) await recordPollActivity(pollId, activity);
        else await remove(pollId);
      });
    }
  }
}

/** Runs the sweep now and then every `intervalMs` (never two at once) until stopped. */
export function startRetentionSweep(options: RetentionOptions & { intervalMs: number }): { stop(): Promise<void> } {
  return runInBackground('retention sweep', () => sweepPolls(options), options.intervalMs, options.logger);
}
