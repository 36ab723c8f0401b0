import type { Context } from 'koa';
import { RESULTS_WITHHELD, ReasonsQuery } from '@logovote/contracts';
import { RESULTS_RULE_FIELDS, channelNamer, findActivePoll, isPollCreator, resultsWithheldFrom, type Slot } from '@logovote/models';
import { HttpError, parseInput, pollOr404, type resultsViewerClues } from '@logovote/service-kit';

/**
 * What the public reads of voters' words (reasons and notes, docs/reasons.md) share: the poll they belong
 * to, refused as its counts are, and for the poll's creator the channel each entry came through (channels are
 * the creator's data: docs/results-visibility.md).
 */

/**
 * The poll of a read of its voters' words, if this viewer may see its results: withheld with the counts
 * (403, docs/results-visibility.md), 404 for an unknown poll; and whether the viewer is its creator.
 */
export async function readablePoll(ctx: Context, viewerOf: ReturnType<typeof resultsViewerClues>) {
  const poll = pollOr404(await findActivePoll(ctx.params.sessionId, ['logos', 'channels', ...RESULTS_RULE_FIELDS]));
  const viewer = viewerOf(ctx, poll._id);
  const withheld = await resultsWithheldFrom(poll, viewer);
  if (withheld) throw new HttpError(403, RESULTS_WITHHELD[withheld]);
  return { poll, creator: isPollCreator(poll, viewer) };
}

/** As readablePoll, for a read of one logo's words: 400 for a logo not of the poll. */
async function readablePollOf(ctx: Context, viewerOf: ReturnType<typeof resultsViewerClues>, logoId: string) {
  const readable = await readablePoll(ctx, viewerOf);
  if (!readable.poll.logos.some((logo) => logo.id === logoId)) throw new HttpError(400, 'This logo is not part of this voting session');
  return readable;
}

/** A page of voters' words as a read answers it: each entry's text, date and (for the creator of a poll with channels) channel. */
export interface WordsPage {
  entries: { text: string; at: string; channel?: string }[];
  next: string | null;
}

/**
 * GET reasons or notes of a logo (docs/reasons.md): the query checked, the poll readable by this viewer, one
 * page read by `read` (newest first, below the cursor), each entry with its channel for the creator. New entries arrive at
 * any time, so no cache may keep a page for the URL.
 */
export async function readWordsPage(
  ctx: Context,
  viewerOf: ReturnType<typeof resultsViewerClues>,
  read: (
    pollId: string,
    logoId: string,
    before?: number,
  ) => Promise<{ entries: Slot<WordsExtra, { text: string }>[]; next: number | null }>,
): Promise<WordsPage> {
  const query = parseInput(ReasonsQuery, ctx.query);
  const { poll, creator } = await readablePollOf(ctx, viewerOf, query.logoId);
  const page = await read(poll._id, query.logoId, query.cursor === undefined ? undefined : Number(query.cursor));
  ctx.set('Cache-Control', 'no-store');
  return {
    entries: (await shownChannels(creator ? (poll.channels ?? []) : [], page.entries)).map(({ entry, channel }) => ({
      text: entry.text,
      at: entry.at.toISOString(),
      ...(channel === undefined ? {} : { channel }),
    })),
    next: page.next === null ? null : String(page.next),
  };
}

type WordsExtra = { voterKey: string; channel?: string | undefined };

/**
 * Each entry's channel as the creator's results show it (docs/channels.md): with channels its name, or
 * 'Other / direct link' for the plain link; nothing without channels (or for anyone but the creator).
 */
async function shownChannels<Entry extends WordsExtra>(
  channels: { id: string; name: string }[],
  entries: Entry[],
): Promise<{ entry: Entry; channel?: string }[]> {
  if (channels.length === 0) return entries.map((entry) => ({ entry }));
  const nameOf = channelNamer(channels);
  return Promise.all(entries.map(async (entry) => ({ entry, channel: await nameOf(entry) })));
}
