import { channelLedger, channelOfVoter, channelTally } from '@logovote/models';
import type { WrittenRevision } from './cast-vote';

/**
 * Mirrors a vote ledger revision into the channel tally of the voter's channel (docs/channels.md): the
 * same revision number, from and to, so of racing requests of one voter each mirrors only the revision
 * it wrote itself and the channel's counts stay exact. The channel is the one the voter's seat was taken
 * with: known when this request took it, else one lookup of the seat. Resolves with the channel tally
 * written, or undefined for a voter of the plain link.
 */
export async function mirrorIntoChannel(
  pollId: string,
  voteId: string,
  logoId: string,
  written: WrittenRevision,
): Promise<string | undefined> {
  const channel = written.seatChannel !== undefined ? written.seatChannel : await channelOfVoter(voteId);
  if (channel === null) return undefined;
  const tally = channelTally(pollId, channel);
  await channelLedger.append({ tally, member: voteId, rev: written.rev, from: written.from, to: logoId });
  return tally;
}
