import { VIA_PARAM } from './constants';

/** The voting link of one channel of a poll (docs/channels.md): the poll's voting link naming the channel's id. */
export const channelVotingUrl = (votingUrl: string, channelId: string): string =>
  `${votingUrl}?${VIA_PARAM}=${encodeURIComponent(channelId)}`;
