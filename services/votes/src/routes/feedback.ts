import type { Context } from 'koa';
import { RESULTS_WITHHELD, SESSION_NOT_FOUND } from '@logovote/contracts';
import { RESULTS_RULE_FIELDS, channelNamer, findActivePoll, resultsWithheldFrom } from '@logovote/models';
import { HttpError, type resultsViewerClues } from '@logovote/service-kit';

/**
 * What the public reads of voters' words (reasons and notes, docs/reasons.md) share: the poll they belong
 * to, refused as its counts are, and the channel each entry came through.
 */

/**
 * The poll of a read of a logo's reasons or notes, if this viewer may see its results: withheld with the
 * counts (403, docs/results-visibility.md), 404 for an unknown poll, 400 for a logo not of it.
 */
export async function readablePollOf(ctx: Context, viewerOf: ReturnType<typeof resultsViewerClues>, logoId: string) {
  const poll = await findActivePoll(ctx.params.sessionId, ['logos', 'channels', ...RESULTS_RULE_FIELDS]);
  if (!poll) throw new HttpError(404, SESSION_NOT_FOUND);
  const withheld = await resultsWithheldFrom(poll, viewerOf(ctx, poll._id));
  if (withheld) throw new HttpError(403, RESULTS_WITHHELD[withheld]);
  if (!poll.logos.some((logo) => logo.id === logoId)) throw new HttpError(400, 'This logo is not part of this voting session');
  return poll;
}

/**
 * Each entry's channel as the results show it (docs/channels.md): in a poll with channels its name, or
 * 'Other / direct link' for the plain link; nothing in a poll without channels.
 */
export async function shownChannels<Entry extends { voteId: string; channel?: string | undefined }>(
  poll: { channels?: { id: string; name: string }[] | null | undefined },
  entries: Entry[],
): Promise<{ entry: Entry; channel?: string }[]> {
  const channels = poll.channels ?? [];
  if (channels.length === 0) return entries.map((entry) => ({ entry }));
  const nameOf = channelNamer(channels);
  return Promise.all(entries.map(async (entry) => ({ entry, channel: await nameOf(entry) })));
}
