import type { AttributeCounts, AttributeResults } from '@logovote/contracts';
import { attributeLedger, attributeTallies, attributeTally, type AttributeTally, type Poll } from '@logovote/models';

const countsOf = (logoIds: readonly string[], tally: AttributeTally | undefined): AttributeCounts => ({
  logos: logoIds.map((logoId) => ({ logoId, answers: tally?.logos.get(logoId) ?? 0 })),
  cantSay: tally?.cantSay ?? 0,
});

/** What is left of `total` beside the channels' answers (never below 0: tallies are read one after the other). */
function rest(total: AttributeTally | undefined, channels: (AttributeTally | undefined)[]): AttributeTally {
  const logos = new Map<string, number>();
  for (const [logoId, answers] of total?.logos ?? []) {
    logos.set(logoId, Math.max(0, answers - channels.reduce((sum, channel) => sum + (channel?.logos.get(logoId) ?? 0), 0)));
  }
  return { logos, cantSay: Math.max(0, (total?.cantSay ?? 0) - channels.reduce((sum, channel) => sum + (channel?.cantSay ?? 0), 0)) };
}

/**
 * A poll's answers to its attribute questions (docs/attributes.md): one read of the poll's tally gives every
 * attribute's; `byChannel` (the creator's, in a poll with channels) adds one read per channel, and the plain
 * link's answers are the rest.
 */
export async function attributeResults(
  poll: Pick<Poll, '_id' | 'logos' | 'channels' | 'attributes'>,
  byChannel: boolean,
): Promise<AttributeResults> {
  const names = poll.attributes ?? [];
  const logoIds = poll.logos.map((logo) => logo.id);
  const total = attributeTallies(await attributeLedger.readCounts(attributeTally(poll._id)), names.length);
  const channels = byChannel ? (poll.channels ?? []) : [];
  const perChannel = await Promise.all(
    channels.map(async (channel) => attributeTallies(await attributeLedger.readCounts(attributeTally(poll._id, channel.id)), names.length)),
  );
  return {
    attributes: names.map((name, index) => ({
      name,
      ...countsOf(logoIds, total[index]),
      ...(channels.length > 0
        ? {
            channels: channels.map(({ id, name: channelName }, position) => ({
              id,
              name: channelName,
              ...countsOf(logoIds, perChannel[position]![index]),
            })),
            direct: countsOf(
              logoIds,
              rest(
                total[index],
                perChannel.map((tallies) => tallies[index]),
              ),
            ),
          }
        : {}),
    })),
  };
}
