import { Button, cn, SpinnerIcon } from '@logovote/ui';
import { api } from '@logovote/web-client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';

import { useAfterPageLoad } from './use-after-page-load';

// Made on first use: a page's first Intl.DateTimeFormat loads the locale's data (about 20 ms on this machine,
// four times that on a phone), which at import time would lengthen the results page's start-up task.
let dateFormat: Intl.DateTimeFormat | undefined;
const shortDate = (at: string) =>
  (dateFormat ??= new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })).format(new Date(at));

/** Voters' words under a result card: the reasons for picking the logo, or the notes on what they would change. */
export type WordsKind = 'reasons' | 'notes';

/** The query of a logo's reasons or notes; without them, of every logo's of the poll (what live results refresh). */
export const reasonsQueryKey = (sessionId: string, kind?: WordsKind, logoId?: string) =>
  kind === undefined || logoId === undefined ? ['results', 'reasons', sessionId] : ['results', 'reasons', sessionId, kind, logoId];

/** What each kind reads and says. */
const KINDS = {
  reasons: {
    title: 'Why this one?',
    what: 'reasons',
    labelOf: (label: string) => `Why voters chose ${label}`,
    empty: 'No reasons given yet.',
    read: async (sessionId: string, logoId: string, cursor?: string, creatorToken?: string) => {
      const page = await api.getReasons(sessionId, logoId, cursor, creatorToken);
      return { next: page.next, words: page.reasons.map(({ reason, ...rest }) => ({ text: reason, ...rest })) };
    },
  },
  notes: {
    title: 'What would you change?',
    what: 'notes',
    labelOf: (label: string) => `What voters would change about ${label}`,
    empty: 'No notes left yet.',
    read: async (sessionId: string, logoId: string, cursor?: string, creatorToken?: string) => {
      const page = await api.getNotes(sessionId, logoId, cursor, creatorToken);
      return { next: page.next, words: page.notes.map(({ note, ...rest }) => ({ text: note, ...rest })) };
    },
  },
} as const;

/** `creatorToken`: this browser's, for the poll's creator, who also sees each entry's channel. */
type ReasonListProps = { sessionId: string; logoId: string; label: string; kind?: WordsKind; creatorToken?: string | undefined };

/** Entries a card shows before 'Show all': enough to read the mood, few enough that cards stay short on a phone. */
const PREVIEW_REASONS = 3;

/**
 * Voters' words under a result card (docs/reasons.md), newest first: 'Why this one?', the reasons of those
 * who picked this logo, or 'What would you change?', the notes voters left on it, each with the channel
 * its voter came through in a poll with channels. The card shows the newest three, each cut to two lines,
 * in a box whose height fits them, so loading moves nothing on the page (layout shift 0); 'Show all N'
 * opens the list in place, in full, and 'Show more' then reads older pages. Nothing scrolls inside the page.
 */
export function ReasonList({ sessionId, logoId, label, kind = 'reasons', creatorToken }: ReasonListProps) {
  const words = KINDS[kind];
  const loaded = useAfterPageLoad();
  const [expanded, setExpanded] = useState(false);
  const reasons = useInfiniteQuery({
    queryKey: reasonsQueryKey(sessionId, kind, logoId),
    queryFn: ({ pageParam }) => words.read(sessionId, logoId, pageParam, creatorToken),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
    enabled: loaded,
    // Not spec reads, but as quiet: read on each visit of the screen, and again only when the live results
    // say votes or voters' words changed (use-live-counts.ts).
    retry: false,
    refetchOnWindowFocus: false,
    gcTime: 0,
  });
  const loadedReasons = reasons.data?.pages.flatMap((page) => page.words) ?? [];
  const shown = expanded ? loadedReasons : loadedReasons.slice(0, PREVIEW_REASONS);
  const hidden = loadedReasons.length - shown.length;
  const listId = useId();

  return (
    <section
      data-testid={kind}
      data-expanded={expanded}
      aria-label={words.labelOf(label)}
      className="flex min-h-40 flex-col rounded-md border border-border bg-muted/40 p-2 text-xs sm:min-h-48 sm:text-sm"
    >
      <h3 className="mb-1 font-medium">{words.title}</h3>
      {reasons.isPending && (
        <p className="flex items-center gap-1 text-muted-foreground">
          <SpinnerIcon className="size-3" />
          Loading {words.what}...
        </p>
      )}
      {reasons.isError && <p className="text-muted-foreground">{kind === 'reasons' ? 'Reasons' : 'Notes'} could not be loaded.</p>}
      {reasons.isSuccess && loadedReasons.length === 0 && !reasons.hasNextPage && <p className="text-muted-foreground">{words.empty}</p>}
      {shown.length > 0 && (
        <ul id={listId} className="flex flex-col gap-1.5">
          {shown.map((reason, index) => (
            <li
              key={`${reason.at}-${index}`}
              data-testid={kind === 'reasons' ? 'reason' : 'note'}
              className={cn('break-words', !expanded && 'line-clamp-2')}
            >
              {/* The channel first, so a preview cut to two lines still says where the words came from. */}
              {reason.channel !== undefined && (
                <>
                  <span
                    data-testid="words-channel"
                    title={`Came through ${reason.channel}`}
                    className="rounded-sm bg-background px-1 py-px align-baseline text-[0.7rem] whitespace-nowrap text-muted-foreground ring-1 ring-border sm:text-xs"
                  >
                    {reason.channel}
                  </span>{' '}
                </>
              )}
              <q>{reason.text}</q>{' '}
              <time dateTime={reason.at} className="text-muted-foreground">
                {shortDate(reason.at)}
              </time>
            </li>
          ))}
        </ul>
      )}
      {!expanded && (hidden > 0 || reasons.hasNextPage) && (
        <Button
          variant="link"
          size="sm"
          data-testid={`${kind}-show-all`}
          aria-expanded={false}
          aria-controls={listId}
          onClick={() => setExpanded(true)}
          className="mt-auto h-auto self-start px-0 py-1 text-xs sm:text-sm"
        >
          {reasons.hasNextPage ? 'Show all' : `Show all ${loadedReasons.length}`}
        </Button>
      )}
      {expanded && reasons.hasNextPage && (
        <Button
          variant="link"
          size="sm"
          data-testid={`${kind}-more`}
          aria-disabled={reasons.isFetchingNextPage}
          onClick={() => {
            if (!reasons.isFetchingNextPage) void reasons.fetchNextPage();
          }}
          className="h-auto self-start px-0 py-1 text-xs sm:text-sm"
        >
          {reasons.isFetchingNextPage ? 'Loading...' : 'Show more'}
        </Button>
      )}
    </section>
  );
}
