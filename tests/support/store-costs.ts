import mongoose from 'mongoose';
import { PollModel } from '@logovote/models';
import { postgresQuery } from '@logovote/devstack';
import { testStack } from './stack-env';
import { activatePollsInBulk, insertFirstVotes, type FirstVote } from '@logovote/models/test-support';

/**
 * What the store does for a request, counted rather than timed: the database operations the driver
 * sends (command monitoring on this process's connection) and the rows PostgreSQL reads under FerretDB
 * (its table statistics).
 */

/** Commands that are the driver's own housekeeping, not an operation of the code under test. */
const HOUSEKEEPING = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'endSessions', 'buildInfo', 'getMore']);

/** Counts the database operations `run` sends on the process-wide connection, by command name. */
export async function countOperations(run: () => Promise<unknown>): Promise<{ total: number; byCommand: Record<string, number> }> {
  const client = mongoose.connection.getClient();
  const byCommand: Record<string, number> = {};
  const listener = (event: { commandName: string }) => {
    if (!HOUSEKEEPING.has(event.commandName)) byCommand[event.commandName] = (byCommand[event.commandName] ?? 0) + 1;
  };
  client.on('commandStarted', listener);
  try {
    await run();
  } finally {
    client.off('commandStarted', listener);
  }
  return { total: Object.values(byCommand).reduce((sum, n) => sum + n, 0), byCommand };
}

/** Rows read so far per collection of a database (FerretDB: a PostgreSQL schema), and sequential scans. */
export function tableReads(database: string): Map<string, { rows: number; seqScans: number }> {
  const schema = database.replaceAll('"', '');
  const lines = postgresQuery(
    testStack().postgresPort,
    `SELECT m._jsonb->>'_id', s.seq_tup_read + coalesce(s.idx_tup_fetch, 0), s.seq_scan
     FROM pg_stat_user_tables s JOIN "${schema}"._ferretdb_database_metadata m ON m._jsonb->>'table' = s.relname
     WHERE s.schemaname = '${schema}'`,
  );
  const reads = new Map<string, { rows: number; seqScans: number }>();
  for (const [collection, rows, seqScans] of lines) {
    reads.set(collection!, { rows: Number(rows), seqScans: Number(seqScans) });
  }
  return reads;
}

/** A backend flushes its table statistics at most 10 s after it goes idle (PostgreSQL's PGSTAT_IDLE_INTERVAL). */
const STATS_SETTLE_MS = 11_000;

/**
 * The rows PostgreSQL read, per collection, while `run` ran (and sequential scans): statistics are read
 * before and after, each once every backend has flushed them. Nothing else may use `database` meanwhile.
 */
export async function rowsRead(database: string, run: () => Promise<unknown>): Promise<Map<string, { rows: number; seqScans: number }>> {
  await new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
  const before = tableReads(database);
  await run();
  await new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
  const after = tableReads(database);
  const read = new Map<string, { rows: number; seqScans: number }>();
  for (const [collection, counts] of after) {
    const earlier = before.get(collection) ?? { rows: 0, seqScans: 0 };
    const delta = { rows: counts.rows - earlier.rows, seqScans: counts.seqScans - earlier.seqScans };
    if (delta.rows > 0 || delta.seqScans > 0) read.set(collection, delta);
  }
  return read;
}

/**
 * Stores what surrounds a measured poll in a busy database: `polls` other active polls with `votesPerPoll`
 * folded votes each, a few of them with pending votes too, and `ownVotes` folded votes of the poll
 * itself. Big enough that PostgreSQL's planner reads every table by index, as it does in production.
 */
export async function fillStore(
  poll: { sessionId: string; logoIds: string[] },
  options = { polls: 2_000, votesPerPoll: 10, ownVotes: 5_000 },
) {
  const logoIds = ['a', 'b', 'c', 'd'];
  const others = Array.from({ length: options.polls }, (_, index) => ({ sessionId: `${poll.sessionId.slice(0, 10)}o${index}`, logoIds }));
  await PollModel.insertMany(
    others.map((other) => ({
      _id: other.sessionId,
      logos: logoIds.map((id) => ({
        id,
        filename: `${other.sessionId}-${id}.png`,
        originalName: `${id}.png`,
        contentType: 'image/png',
        size: 1,
      })),
    })),
  );
  await activatePollsInBulk(others.map((other) => other.sessionId));
  const votes = (target: { sessionId: string; logoIds: string[] }, count: number, tag: string): FirstVote[] =>
    Array.from({ length: count }, (_, index) => ({
      pollId: target.sessionId,
      fingerprint: `${tag}${index}`,
      logoId: target.logoIds[index % target.logoIds.length]!,
      ipHash: `${tag}-address-${index}`,
      seat: 0,
    }));
  for (const [index, other] of others.entries()) await insertFirstVotes(votes(other, options.votesPerPoll, `f${index}-`), { folded: true });
  for (const [index, other] of others.slice(0, 20).entries()) await insertFirstVotes(votes(other, 5, `p${index}-`));
  await insertFirstVotes(votes(poll, options.ownVotes, 'own-'), { folded: true });
}
