import type { Logo } from '@logovote/contracts';
import { VoteModel, type StoredLogo } from '@logovote/models';

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
