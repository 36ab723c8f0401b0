import type { ChannelCounts, ChannelResults } from '@logovote/contracts';
import { readChannelCounts, voteLedger, type Poll } from '@logovote/models';

type Counts = Map<string, number>;

function countsOf(logoIds: readonly string[], votesOf: (logoId: string) => number): ChannelCounts {
  const logos = logoIds.map((logoId) => ({ logoId, votes: votesOf(logoId) }));
  return { logos, totalVotes: logos.reduce((sum, logo) => sum + logo.votes, 0) };
}

/**
 * A poll's votes per channel and those of the plain link (docs/channels.md): each channel's own tally, and
 * the rest of the poll's total. The tallies are read one after the other, so while votes arrive a vote can
 * be in a channel's count and not yet in the total read before it: the plain link's count never goes below 0.
 */
export async function channelResults(poll: Pick<Poll, '_id' | 'logos' | 'channels'>, total?: Counts): Promise<ChannelResults> {
  const channels = poll.channels ?? [];
  const totals = total ?? (await voteLedger.readCounts(poll._id));
  const perChannel = await readChannelCounts(
    poll._id,
    channels.map((channel) => channel.id),
  );
  const logoIds = poll.logos.map((logo) => logo.id);
  const inChannels = (logoId: string) => channels.reduce((sum, channel) => sum + (perChannel.get(channel.id)?.get(logoId) ?? 0), 0);
  return {
    channels: channels.map(({ id, name }) => ({ id, name, ...countsOf(logoIds, (logoId) => perChannel.get(id)?.get(logoId) ?? 0) })),
    direct: countsOf(logoIds, (logoId) => Math.max(0, (totals.get(logoId) ?? 0) - inChannels(logoId))),
  };
}
