/** The voting link's query parameter that names the channel (its id, never its name). */
export const VIA_PARAM = 'via';

/**
 * The voting link of one channel of a poll (docs/channels.md): the poll's voting link naming the channel's id.
 * Free of zod, so the browser and the services build the same link.
 */
export function channelVotingUrl(votingUrl: string, channelId: string): string {
  return `${votingUrl}?${VIA_PARAM}=${encodeURIComponent(channelId)}`;
}
