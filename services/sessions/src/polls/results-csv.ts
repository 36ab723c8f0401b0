import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { stringify } from 'csv-stringify';
import { DIRECT_LINK_GROUP, rankGroup, rankLogos, resultsCsvFileName } from '@logovote/contracts';
import { allNotes, allReasons, attributeAnswers, channelNamer, readLogoThemes, voteLedger, type Poll } from '@logovote/models';
import type { Logger } from '@logovote/service-kit';
import { channelResults } from './channel-counts';
import { logosWithCounts, totalVotes } from './vote-counts';

/**
 * The export's columns: a logo's row fills the first four, each reason's row the logo's and the two after.
 * The logo's name comes last on every row, so readers of the earlier columns by position find them unmoved.
 */
const COLUMNS = ['Logo', 'Original file name', 'Votes', 'Percent of total votes', 'Reason', 'Reason date', 'Logo name'];
/**
 * A poll with channels (docs/channels.md) has one more column after those: empty on the logo rows (all
 * voters), the channel's name on its rows, which follow the reasons and notes: one per logo and channel, then
 * the plain link's; and on each reason's and note's row the channel its voter came through.
 */
const CHANNEL_COLUMN = 'Channel';
/** Last, so the columns before them keep their places: a note's row fills the logo's columns and these two. */
const NOTE_COLUMNS = ['Note', 'Note date'];
/** After them: on a reason's row, the theme of its logo's reasons it belongs to (docs/reasons.md, "Themes"), if any. */
const THEME_COLUMN = 'Theme';
/**
 * A poll with attributes (docs/attributes.md) has two more, last: on each answer's row (after the channel
 * rows, one per voter and attribute) the attribute and the answer, the logo's label or "Can't say".
 */
const ATTRIBUTE_COLUMNS = ['Attribute', 'Answer'];
const CANT_SAY = "Can't say";
type Cell = string | number;

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (CSV injection): such text
 * cells get a leading apostrophe, which spreadsheets show as text and do not run (OWASP's advice).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const neutralizeFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/**
 * Answers `ctx` with the poll's results as CSV, streamed (docs/export.md): one row per logo in the page's
 * order, labels and rounded percentages as the page shows them (the ranking is the page's own code, from
 * @logovote/contracts, over the upload order, so ties read the same in every export), then every kept
 * reason, per logo, newest first, with its theme, then every note likewise, then the channels' rows, then
 * every answer to the attribute questions. The creator's download and the admin's.
 */
export async function sendResultsCsv(
  ctx: Context,
  logger: Logger,
  poll: Pick<Poll, '_id' | 'logos' | 'channels' | 'attributes'>,
): Promise<void> {
  const counts = await voteLedger.readCounts(poll._id);
  const logos = logosWithCounts(poll.logos, counts);
  const ranked = rankLogos(logos, totalVotes(logos));
  const byChannel = poll.channels?.length ? await channelResults(poll, counts) : undefined;
  const channelOf = channelNamer(byChannel ? (poll.channels ?? []) : []);
  /** The channel cell of a row: none without channels. */
  const channelCell = async (entry?: { voterKey: string; channel?: string | undefined }): Promise<Cell[]> =>
    byChannel ? [entry ? neutralizeFormula(await channelOf(entry)) : ''] : [];
  const noNote = ['', ''];
  const attributes = poll.attributes ?? [];
  /** The attribute cells of a row: none without attributes. */
  const noAttribute: Cell[] = attributes.length > 0 ? ['', ''] : [];
  /** Each logo's theme of each reason it has one for, by the reason's slot name. */
  const themeOf = async (logoId: string) => {
    const themes = (await readLogoThemes(poll._id, logoId))?.value.themes ?? [];
    return new Map(themes.flatMap((theme) => theme.members.map((member) => [member, theme.label] as const)));
  };

  async function* rows(): AsyncGenerator<Cell[]> {
    for (const { logo, label, percent } of ranked) {
      yield [
        label,
        neutralizeFormula(logo.originalName),
        logo.voteCount,
        percent,
        '',
        '',
        neutralizeFormula(logo.name),
        ...(await channelCell()),
        ...noNote,
        '',
        ...noAttribute,
      ];
    }
    for (const { logo, label } of ranked) {
      const themes = await themeOf(logo.id);
      for await (const reason of allReasons(poll._id, logo.id)) {
        const text = neutralizeFormula(reason.text);
        yield [
          label,
          neutralizeFormula(logo.originalName),
          '',
          '',
          text,
          reason.at.toISOString(),
          neutralizeFormula(logo.name),
          ...(await channelCell(reason)),
          ...noNote,
          neutralizeFormula(themes.get(reason.name) ?? ''),
          ...noAttribute,
        ];
      }
    }
    for (const { logo, label } of ranked) {
      for await (const note of allNotes(poll._id, logo.id)) {
        yield [
          label,
          neutralizeFormula(logo.originalName),
          '',
          '',
          '',
          '',
          neutralizeFormula(logo.name),
          ...(await channelCell(note)),
          neutralizeFormula(note.text),
          note.at.toISOString(),
          '',
          ...noAttribute,
        ];
      }
    }
    yield* channelRows();
    if (attributes.length === 0) return;
    const labels = new Map(ranked.map(({ logo, label }) => [logo.id, { logo, label }]));
    for (const answer of await attributeAnswers(poll._id)) {
      const name = attributes[answer.attribute];
      if (name === undefined) continue;
      const picked = answer.logoId === null ? undefined : labels.get(answer.logoId);
      yield [
        picked?.label ?? '',
        picked ? neutralizeFormula(picked.logo.originalName) : '',
        '',
        '',
        '',
        '',
        picked ? neutralizeFormula(picked.logo.name) : '',
        ...(await channelCell({ voterKey: answer.voterKey })),
        ...noNote,
        '',
        neutralizeFormula(name),
        picked?.label ?? CANT_SAY,
      ];
    }
  }

  async function* channelRows(): AsyncGenerator<Cell[]> {
    if (!byChannel) return;
    const groups = [...byChannel.channels, { name: DIRECT_LINK_GROUP, ...byChannel.direct }];
    for (const group of groups) {
      const votes = new Map(group.logos.map((logo) => [logo.logoId, logo.votes]));
      for (const standing of rankGroup(ranked, (logo) => votes.get(logo.id) ?? 0)) {
        const { logo } = standing;
        const name = neutralizeFormula(group.name);
        yield [
          standing.label,
          neutralizeFormula(logo.originalName),
          standing.votes,
          standing.percent,
          '',
          '',
          neutralizeFormula(logo.name),
          name,
          ...noNote,
          '',
          ...noAttribute,
        ];
      }
    }
  }
  // The byte order mark makes spreadsheet programs read the file as UTF-8.
  const csv = stringify({
    bom: true,
    header: true,
    columns: [
      ...COLUMNS,
      ...(byChannel ? [CHANNEL_COLUMN] : []),
      ...NOTE_COLUMNS,
      THEME_COLUMN,
      ...(attributes.length > 0 ? ATTRIBUTE_COLUMNS : []),
    ],
    record_delimiter: 'windows',
  });
  const source = Readable.from(rows());
  // Once the first bytes are sent a failure can no longer be a JSON answer: the download is cut short.
  source.on('error', (error) => {
    logger.error({ err: error, pollId: poll._id }, 'results export failed');
    csv.destroy(error);
  });
  ctx.set('Content-Disposition', `attachment; filename="${resultsCsvFileName(poll._id)}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = source.pipe(csv);
}
