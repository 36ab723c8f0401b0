import type { AttributeCounts, AttributeResults } from '@logovote/contracts';
import type { RankedLogo } from '@logovote/contracts/ranking';
import { DIRECT_LINK_GROUP } from '@logovote/contracts/ranking';
import { cn } from '@logovote/ui';
import { api } from '@logovote/web-client';

import { attributeRow, differingLeaderSentence, type AttributeCall } from './attribute-grid';
import { useAfterLoadQuery, VoterWordsSection } from './VoterWordsSection';

const CALL_STYLE: Record<AttributeCall, string> = {
  clear: 'bg-emerald-100 text-emerald-900',
  leads: 'bg-amber-100 text-amber-900',
  'too close': 'bg-muted text-muted-foreground',
  'no answers': 'bg-muted text-muted-foreground',
};

/** One group's grid: a row per attribute, a column per logo in the page's order, and the sentences where leaders differ. */
function Grid({
  groups,
  ranked,
  caption,
  withSentences = false,
}: {
  groups: { name: string; counts: AttributeCounts }[];
  ranked: readonly RankedLogo[];
  caption: string;
  /** The whole poll's grid says where an attribute's leader is not the poll's (a channel's leader may differ from both). */
  withSentences?: boolean;
}) {
  const rows = groups.map(({ name, counts }) => attributeRow(name, ranked, counts));
  const sentences = withSentences ? rows.map((row) => differingLeaderSentence(row, ranked)).filter((sentence) => sentence !== null) : [];
  return (
    <div className="flex flex-col gap-3">
      <table data-testid="attribute-grid" className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="w-[38%] p-1 text-left font-medium text-muted-foreground">
              Attribute
            </th>
            {ranked.map(({ logo, label }) => (
              <th key={logo.id} scope="col" className="p-1 text-center font-semibold">
                <span className="block">{label.replace('Logo ', '')}</span>
                <span className="block truncate text-xs font-normal text-muted-foreground" title={logo.name}>
                  {logo.name}
                </span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} data-testid="attribute-row" data-call={row.call} className="border-t border-border">
              <th scope="row" className="p-1 text-left align-top font-medium break-words hyphens-auto">
                {row.name}
                <span className="block text-xs font-normal text-muted-foreground">
                  {row.answers === 1 ? '1 answer' : `${row.answers} answers`}
                  {row.cantSay > 0 ? `, ${row.cantSay} can't say` : ''}
                </span>
                {/* No cell leads: the call sits with the attribute. */}
                {!row.leader && row.answers > 0 && (
                  <span
                    data-testid="attribute-call"
                    className={cn('mt-0.5 inline-block rounded-full px-1.5 text-[0.7rem] leading-5 font-normal', CALL_STYLE[row.call])}
                  >
                    {row.call}
                  </span>
                )}
              </th>
              {row.cells.map((cell) => {
                const leads = row.leader?.logoId === cell.logoId;
                return (
                  <td key={cell.logoId} data-testid="attribute-cell" data-logo-id={cell.logoId} className="p-1 text-center align-top">
                    <span className={cn('block tabular-nums', leads && 'font-semibold')}>{row.answers > 0 ? `${cell.percent}%` : '–'}</span>
                    {leads && (
                      <span
                        data-testid="attribute-call"
                        className={cn('mt-0.5 inline-block rounded-full px-1.5 text-[0.7rem] leading-5', CALL_STYLE[row.call])}
                      >
                        {row.call}
                      </span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.some((row) => row.call === 'too close') && (
        <p className="text-xs text-muted-foreground">&quot;too close&quot;: two logos share the most answers.</p>
      )}
      {sentences.map((sentence) => (
        <p key={sentence} data-testid="attribute-sentence" className="text-sm font-medium text-pretty">
          {sentence}
        </p>
      ))}
    </div>
  );
}

type AttributeGridProps = { sessionId: string; ranked: readonly RankedLogo[]; creatorToken: string | undefined };

/**
 * Brief-fit ratings (docs/attributes.md): for each attribute the poll asked about, which logo voters picked
 * as fitting it best, each cell its share of the answers that picked a logo ("Can't say" counted apart), the
 * leader's call in the verdict's words, and a sentence where an attribute's leader is not the poll's; for the
 * creator of a poll with channels, a grid per channel. Read after the page's load and again when the live
 * results say answers changed (the reasons' query key).
 */
export default function AttributeGrid({ sessionId, ranked, creatorToken }: AttributeGridProps) {
  const results = useAfterLoadQuery(sessionId, 'attributes', () => api.getAttributeResults(sessionId, creatorToken));
  const attributes: AttributeResults['attributes'] = results.data?.attributes ?? [];
  const channels = attributes[0]?.channels ?? [];
  const groupOf = (pick: (attribute: AttributeResults['attributes'][number]) => AttributeCounts | undefined) =>
    attributes.map((attribute) => ({ name: attribute.name, counts: pick(attribute) ?? { logos: [], cantSay: 0 } }));
  return (
    <VoterWordsSection
      testId="attribute-results"
      title="What each logo says"
      description="Voters picked the logo that fits each word best, after their vote."
      status={results.status}
      loading="Loading answers..."
      failed="The answers could not be loaded."
      tabsLabel="Whose answers"
      all={
        <Grid
          groups={groupOf((attribute) => attribute)}
          ranked={ranked}
          caption={channels.length > 0 ? 'Answers of all voters' : 'Answers per attribute and logo'}
          withSentences
        />
      }
      audiences={
        channels.length === 0
          ? []
          : [
              ...channels.map((channel) => ({
                label: channel.name,
                content: (
                  <Grid
                    groups={groupOf((attribute) => attribute.channels?.find((entry) => entry.id === channel.id))}
                    ranked={ranked}
                    caption={`Answers of ${channel.name}`}
                  />
                ),
              })),
              {
                label: DIRECT_LINK_GROUP,
                content: (
                  <Grid groups={groupOf((attribute) => attribute.direct)} ranked={ranked} caption={`Answers of ${DIRECT_LINK_GROUP}`} />
                ),
              },
            ]
      }
    />
  );
}
