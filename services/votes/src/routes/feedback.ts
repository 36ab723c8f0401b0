import type { Context } from 'koa';
import { RESULTS_WITHHELD, ReasonsQuery, SESSION_NOT_FOUND } from '@logovote/contracts';
import { RESULTS_RULE_FIELDS, channelNamer, findActivePoll, resultsWithheldFrom, type LogEntry } from '@logovote/models';
import { HttpError, parseInput, type resultsViewerClues } from '@logovote/service-kit';

/**
 * What the public reads of voters' words (reasons and notes, docs/reasons.md) share: the poll they belong
 * to, refused as its counts are, and the channel each entry came through.
 */

/**
 * The poll of a read of a logo's reasons or notes, if this viewer may see its results: withheld with the
 * counts (403, docs/results-visibility.md), 404 for an unknown poll, 400 for a logo not of it.
 */
async function readablePollOf(ctx: Context, viewerOf: ReturnType<typeof resultsViewerClues>, logoId: string) {
  const poll = await findActivePoll(ctx.params.sessionId, ['logos', 'channels', ...RESULTS_RULE_FIELDS]);
  if (!poll) throw new HttpError(404, SESSION_NOT_FOUND);
  const withheld = await resultsWithheldFrom(poll, viewerOf(ctx, poll._id));
  if (withheld) throw new HttpError(403, RESULTS_WITHHELD[withheld]);
  if (!poll.logos.some((logo) => logo.id === logoId)) throw new HttpError(400, 'This logo is not part of this voting session');
  return poll;
}

/** A page of voters' words as a read answers it: each entry's text, date and (in a poll with channels) channel. */
export interface WordsPage {
  entries: { text: string; at: string; channel?: string }[];
  next: string | null;
}

/**
 * GET reasons or notes of a logo (docs/reasons.md): the query checked, the poll readable by this viewer, one
 * page read by `read` (newest first, below the cursor), each entry with its channel. New entries arrive at
 * any time, so no cache may keep a page for the URL.
 */
export async function readWordsPage(
  ctx: Context,
  viewerOf: ReturnType<typeof resultsViewerClues>,
  read: (pollId: string, logoId: string, before?: number) => Promise<{ entries: LogEntry<WordsExtra>[]; next: number | null }>,
): Promise<WordsPage> {
  const query = parseInput(ReasonsQuery, ctx.query);
  const poll = await readablePollOf(ctx, viewerOf, query.logoId);
  const page = await read(poll._id, query.logoId, query.cursor === undefined ? undefined : Number(query.cursor));
  ctx.set('Cache-Control', 'no-store');
  return {
    entries: (await shownChannels(poll, page.entries)).map(({ entry, channel }) => ({
      text: entry.text,
      at: entry.at.toISOString(),
      ...(channel === undefined ? {} : { channel }),
    })),
    next: page.next === null ? null : String(page.next),
  };
}

type WordsExtra = { voteId: string; channel?: string | undefined };

/**
 * Each entry's channel as the results show it (docs/channels.md): in a poll with channels its name, or
 * 'Other / direct link' for the plain link; nothing in a poll without channels.
 */
async function shownChannels<Entry extends WordsExtra>(
  poll: { channels?: { id: string; name: string }[] | null | undefined },
  entries: Entry[],
): Promise<{ entry: Entry; channel?: string }[]> {
  const channels = poll.channels ?? [];
  if (channels.length === 0) return entries.map((entry) => ({ entry }));
  const nameOf = channelNamer(channels);
  return Promise.all(entries.map(async (entry) => ({ entry, channel: await nameOf(entry) })));
}
