import type { Logo } from '@logovote/contracts';
import { VoteModel, countVotesByLogo, type StoredLogo } from '@logovote/models';

/** The public view of a poll's logos with their current counts (from the votes collection). */
export function logosWithCounts(logos: StoredLogo[], counts: Map<string, number> | undefined): Logo[] {
  return logos.map((logo) => ({
    id: logo.id,
    filename: logo.filename,
    originalName: logo.originalName,
    voteCount: counts?.get(logo.id) ?? 0,
  }));
}

export const totalVotes = (logos: Logo[]) => logos.reduce((sum, logo) => sum + logo.voteCount, 0);

/** Per-logo counts of every poll in one aggregation (the admin list), keyed by poll id. */
export async function countVotesByPoll(): Promise<Map<string, Map<string, number>>> {
  const rows = await VoteModel.aggregate<{ _id: { pollId: string; logoId: string }; count: number }>([
    { $group: { _id: { pollId: '$pollId', logoId: '$logoId' }, count: { $sum: 1 } } },
  ]);
  const byPoll = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const counts = byPoll.get(row._id.pollId) ?? new Map<string, number>();
    counts.set(row._id.logoId, row.count);
    byPoll.set(row._id.pollId, counts);
  }
  return byPoll;
}

type Counts = Map<string, number>;

/**
 * countVotesByLogo for the session view, with the requests for one poll that arrive while its counts
 * are being read sharing the next read rather than each starting one. A request never joins a read
 * already running, only one that starts after it arrived, so every answer still counts every vote
 * acknowledged before the request. A busy poll's counts are then read back to back (about once per
 * read, however many visitors ask) instead of once per request, which keeps the database out of a
 * pile-up: on the embedded FerretDB the read scans every vote stored.
 */
export function sharedVoteCounts(read: (pollId: string) => Promise<Counts> = countVotesByLogo): (pollId: string) => Promise<Counts> {
  const running = new Map<string, Promise<Counts>>();
  const queued = new Map<string, Promise<Counts>>();

  const start = (pollId: string): Promise<Counts> => {
    const reading = read(pollId).finally(() => {
      if (running.get(pollId) === reading) running.delete(pollId);
    });
    running.set(pollId, reading);
    return reading;
  };

  return (pollId) => {
    const next = queued.get(pollId);
    if (next) return next;
    const current = running.get(pollId);
    if (!current) return start(pollId);
    const after = current
      .catch(() => undefined)
      .then(() => {
        queued.delete(pollId);
        return start(pollId);
      });
    queued.set(pollId, after);
    return after;
  };
}
