import { MINUTE_MS } from '@logovote/contracts';
import { PollModel, activePoll, readPollContact, voteLedger } from '@logovote/models';
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
 */
export async function sweepPolls(options: RetentionOptions): Promise<string[]> {
  const now = Date.now();
  const deleted: string[] = [];
  const attempted: string[] = [];
  for (;;) {
    const due = await PollModel.find(
      {
        $or: [
          { state: 'active', lastActivityAt: { $lt: new Date(now - options.retentionMs) } },
          { state: 'deleting' },
          { state: 'creating', createdAt: { $lt: new Date(now - ABANDONED_CREATION_MS) } },
        ],
        _id: { $nin: attempted },
      },
      { state: 1, lastActivityAt: 1 },
    )
      .limit(BATCH)
      .lean();
    if (due.length === 0) return deleted;
    for (const { _id: pollId, state, lastActivityAt } of due) {
      attempted.push(pollId);
      try {
        if (state === 'active') {
          // Votes and e-mails are recorded by their own services: copied here, they keep the poll.
          const activity = await lastActivity(pollId, lastActivityAt);
          if (activity.getTime() >= now - options.retentionMs) {
            await PollModel.updateOne(activePoll(pollId), { $set: { lastActivityAt: activity } });
            continue;
          }
        }
        const removed = await deletePoll(options.store, pollId, { resume: true });
        if (!removed) continue;
        options.logger.info({ pollId, removed }, 'retention: poll deleted');
        deleted.push(pollId);
      } catch (error: unknown) {
        // Left as it is; the next sweep tries again.
        options.logger.error({ err: error, pollId }, 'retention: could not delete poll');
      }
    }
  }
}

/** Runs the sweep now and then every `intervalMs` (never two at once) until stopped. */
export function startRetentionSweep(options: RetentionOptions & { intervalMs: number }): { stop(): Promise<void> } {
  return runInBackground('retention sweep', () => sweepPolls(options), options.intervalMs, options.logger);
}
