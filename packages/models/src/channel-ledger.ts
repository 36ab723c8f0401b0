import { PollModel } from './poll';
import { exactTally } from './store/tally';
import { VoterSeatModel } from './vote';

/**
 * The votes of each channel of a poll (docs/channels.md), counted per logo: an exact tally per channel
 * (`<pollId>|<channelId>`) whose members are the channel's voters and whose values are logo ids. Each of
 * its revisions mirrors the vote ledger's revision of the same number, written by the request that wrote
 * that one, so a voter's changes move between logos within the channel exactly. The votes service writes
 * and folds it; polls without channels have none.
 */
export const channelLedger = exactTally({ revisions: 'channel_ledger', steps: 'channel_tallies', model: 'ChannelVote' });

export const channelTally = (pollId: string, channelId: string): string => `${pollId}|${channelId}`;

/** The channel a voter counts for: the one its seat was taken with (null: the plain link). One lookup by the seat's key. */
export async function channelOfVoter(voterKey: string): Promise<string | null> {
  const seat = await VoterSeatModel.findById(voterKey, { channel: 1, _id: 0 }).lean<{ channel?: string }>();
  return seat?.channel ?? null;
}

/** Each channel's votes per logo (two lookups per channel). */
export async function readChannelCounts(pollId: string, channelIds: readonly string[]): Promise<Map<string, Map<string, number>>> {
  const counts = await Promise.all(channelIds.map((id) => channelLedger.readCounts(channelTally(pollId, id))));
  return new Map(channelIds.map((id, index) => [id, counts[index]!]));
}

/** The ids of a poll's channels, as stored with the poll (also while it is being deleted). */
export async function storedChannelIds(pollId: string): Promise<string[]> {
  const poll = await PollModel.findById(pollId, { channels: 1 }).lean<{ channels?: { id: string }[] }>();
  return (poll?.channels ?? []).map((channel) => channel.id);
}

/** Removes the channel tallies of a poll. */
export async function deleteChannelTallies(pollId: string): Promise<void> {
  for (const id of await storedChannelIds(pollId)) await channelLedger.deleteTally(channelTally(pollId, id));
}

/** Whether anything of a poll's channel tallies is stored. */
export async function hasChannelTallies(pollId: string): Promise<boolean> {
  for (const id of await storedChannelIds(pollId)) if (await channelLedger.hasTally(channelTally(pollId, id))) return true;
  return false;
}
