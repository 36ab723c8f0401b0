import { Button, Card, CardContent, CardHeader, Input, SpinnerIcon, toast } from '@logovote/ui';
import { ADMIN_SEARCH_QUERY_MAX } from '@logovote/contracts/limits';
import { api, type AdminPollSearch } from '@logovote/web-client';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';

import { DeletePollDialog } from './DeletePollDialog';
import { NoPollSelected, PollDetails } from './PollDetails';
import { PollList } from './PollList';
import { ReportedPolls } from './ReportedPolls';
import { RefusedUploads } from './RefusedUploads';

import './styles.css';

/** Props the shell passes to the admin screen (route `/admin/polls`). */
export type AdminPollsPageProps = Record<string, never>;

const POLLS_QUERY_KEY = ['admin', 'polls'] as const;

function LoadingPolls() {
  return (
    <div role="status" className="flex flex-1 items-center justify-center gap-2 py-16 text-muted-foreground" data-testid="polls-loading">
      <SpinnerIcon className="size-5" />
      Loading polls...
    </div>
  );
}

/** What the search found, in words: how many, whether more match, or why nothing is shown. */
function SearchOutcome({ query, search }: { query: string; search: ReturnType<typeof useQuery<AdminPollSearch>> }) {
  let text: string;
  if (search.isPending) text = 'Searching...';
  else if (search.isError) text = `The search failed: ${search.error.message}`;
  else if (search.data.polls.length === 0) text = `No polls match “${query}”.`;
  else
    text = search.data.more
      ? `The newest ${search.data.polls.length} of more polls matching “${query}”: add a word to narrow the search.`
      : `${search.data.polls.length} ${search.data.polls.length === 1 ? 'poll matches' : 'polls match'} “${query}”.`;
  return (
    <p role="status" data-testid="search-outcome" className="text-sm break-words text-muted-foreground">
      {text}
    </p>
  );
}

function PollsUnavailable({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Card role="alert" data-testid="polls-error" className="mx-auto w-full max-w-xl">
      <CardHeader>
        <h1 className="text-2xl font-semibold tracking-tight">Poll Management</h1>
        <p className="text-sm text-muted-foreground">The polls could not be loaded.</p>
        <p className="font-mono text-xs break-all text-muted-foreground">{message}</p>
      </CardHeader>
      <CardContent>
        <Button onClick={onRetry}>Try again</Button>
      </CardContent>
    </Card>
  );
}

/** The search form above the list (docs/admin.md, "Search"): by the question's or the logo names' words, or a poll id or link. */
function PollSearchForm({ onSearch }: { onSearch: (query: string) => void }) {
  const [text, setText] = useState('');
  const inputId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form role="search" onSubmit={submit} className="flex gap-2" data-testid="poll-search">
      <label htmlFor={inputId} className="sr-only">
        Search polls
      </label>
      <Input
        id={inputId}
        type="search"
        value={text}
        maxLength={ADMIN_SEARCH_QUERY_MAX}
        placeholder="Question, logo name or poll id"
        onChange={(event) => {
          setText(event.target.value);
          // Emptied (or cleared with the field's own button): back to the whole list.
          if (event.target.value.trim() === '') onSearch('');
        }}
      />
      <Button type="submit" variant="outline">
        Search
      </Button>
    </form>
  );
}

/** Admin poll management (spec sections 2 and 4): the poll list, the selected poll's details, and its deletion. */
export default function AdminPollsPage(_props: AdminPollsPageProps) {
  const queryClient = useQueryClient();
  const headingId = useId();
  const listHeading = useRef<HTMLHeadingElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [query, setQuery] = useState('');
  const justDeleted = useRef(false);

  // The server gives the list a page at a time (newest first); the sidebar asks for more on demand.
  const polls = useInfiniteQuery({
    queryKey: POLLS_QUERY_KEY,
    queryFn: ({ pageParam }) => api.listAdminPolls(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next,
  });
  const loaded = polls.data?.pages.flatMap((page) => page.polls) ?? [];
  const search = useQuery({
    queryKey: [...POLLS_QUERY_KEY, 'search', query],
    queryFn: () => api.searchAdminPolls(query),
    enabled: query !== '',
  });
  const shown = query === '' ? loaded : (search.data?.polls ?? []);
  // A selection the refreshed list no longer holds (deleted elsewhere) shows as none.
  const selected = shown.find((poll) => poll.pollId === selectedId) ?? null;

  const deletion = useMutation({
    mutationFn: (pollId: string) => api.deleteAdminPoll(pollId),
    onSuccess: () => {
      justDeleted.current = true;
      setSelectedId(null);
      toast({ title: 'Poll deleted', description: 'The poll has been successfully deleted.' });
    },
    onError: () => toast({ title: 'Error', description: 'Failed to delete poll. Please try again.', variant: 'destructive' }),
    onSettled: () => {
      setConfirming(false);
      // Spec section 4: after a delete the list is refreshed (after a failed one too: the poll may be gone already).
      void queryClient.invalidateQueries({ queryKey: POLLS_QUERY_KEY });
    },
  });

  // The dialog opens without a Radix trigger, so where the keyboard goes next is said here: back to Delete
  // Poll, or, when that button went with the poll, to the list.
  const focusAfterDialog = (event: Event) => {
    event.preventDefault();
    const button = deleteButton.current;
    if (!justDeleted.current && button?.isConnected) button.focus();
    else listHeading.current?.focus();
    justDeleted.current = false;
  };

  let content;
  if (polls.isPending) {
    content = <LoadingPolls />;
  } else if (polls.isError) {
    content = <PollsUnavailable message={polls.error.message} onRetry={() => void polls.refetch()} />;
  } else {
    // The number of polls in the whole list, not only the pages loaded so far.
    const count = polls.data.pages[0]?.total ?? 0;
    content = (
      <div className="grid gap-6 lg:grid-cols-[22rem_minmax(0,1fr)] lg:items-start">
        <aside aria-labelledby={headingId} className="lg:sticky lg:top-6">
          <Card className="flex flex-col lg:max-h-[calc(100dvh-3rem)]">
            <CardHeader className="gap-1 px-4 pb-4 sm:px-6">
              <h1 id={headingId} ref={listHeading} tabIndex={-1} className="text-2xl font-semibold tracking-tight outline-none">
                Poll Management
              </h1>
              {count > 0 && (
                <p className="text-sm text-muted-foreground" data-testid="poll-count">
                  {count} total polls
                </p>
              )}
            </CardHeader>
            <CardContent className="flex min-h-0 flex-col gap-3 overflow-y-auto px-4 pt-1 sm:px-6">
              <PollSearchForm onSearch={setQuery} />
              {query !== '' && <SearchOutcome query={query} search={search} />}
              <PollList polls={shown} selectedId={selected?.pollId ?? null} onSelect={setSelectedId} />
              {query === '' && polls.hasNextPage && (
                <Button
                  variant="outline"
                  className="mt-3 mb-4 w-full"
                  data-testid="load-more-polls"
                  disabled={polls.isFetchingNextPage}
                  onClick={() => void polls.fetchNextPage()}
                >
                  {polls.isFetchingNextPage ? 'Loading polls...' : `Load more polls (${loaded.length} of ${count} shown)`}
                </Button>
              )}
            </CardContent>
          </Card>
        </aside>
        <div className="min-w-0">
          {selected ? (
            <PollDetails poll={selected} deleteButtonRef={deleteButton} onDelete={() => setConfirming(true)} />
          ) : (
            <NoPollSelected />
          )}
        </div>
      </div>
    );
  }

  return (
    <section data-remote="admin" className="mx-auto flex w-full max-w-6xl flex-1 flex-col">
      {content}
      {/* Below the list, once it is there: shown while the list loads, they would be pushed down by it (a
          layout shift of 0.29 on a phone with a few polls). Their own reads start with them. */}
      {!polls.isPending && (
        <>
          <ReportedPolls />
          <RefusedUploads />
        </>
      )}
      <DeletePollDialog
        open={confirming && selected !== null}
        deleting={deletion.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => selected && deletion.mutate(selected.pollId)}
        onCloseAutoFocus={focusAfterDialog}
      />
    </section>
  );
}
