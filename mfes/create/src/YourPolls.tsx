import type { SessionView } from '@logovote/contracts';
import {
  Badge,
  Button,
  Card,
  CopyIcon,
  copyLink,
  CopyLinkButtons,
  Link,
  LockIcon,
  LogoOnBackdrop,
  SpinnerIcon,
  toast,
  XIcon,
} from '@logovote/ui';
import { api, changeVotingState, channelVotingUrl, ApiError, storedCreatorToken, votingStateOf } from '@logovote/web-client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, useSyncExternalStore, type RefObject } from 'react';

import { forgetPoll, rememberedPollsSnapshot, subscribeToRememberedPolls, type RememberedPoll } from './remembered-polls';

const THUMBNAILS_SHOWN = 4;
/** Above the creation form, the newest polls only: the form stays a short scroll away. */
const POLLS_SHOWN_FIRST = 3;

const votesText = (count: number) => `${count} ${count === 1 ? 'vote' : 'votes'}`;
const createdText = (createdAt: string) => new Date(createdAt).toLocaleDateString(undefined, { dateStyle: 'medium' });
const resultsPath = (sessionId: string) => `/results/${encodeURIComponent(sessionId)}`;

/** Close or reopen voting from the list, with the results page's toasts (docs/closing.md). */
function VotingToggle({ session, creatorToken, onChanged }: { session: SessionView; creatorToken: string; onChanged: () => void }) {
  const { closed } = votingStateOf(session);
  const change = useMutation({
    mutationFn: () => changeVotingState(api, session.sessionId, !closed, creatorToken),
    onSuccess: () => {
      toast(
        closed
          ? { title: 'Voting reopened', description: 'Voters can vote again.' }
          : { title: 'Voting closed', description: 'Voters now see the final results.' },
      );
      onChanged();
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: (error instanceof ApiError && error.serverMessage) || 'Could not change voting. Please try again.',
        variant: 'destructive',
      }),
  });
  return (
    <Button variant="outline" size="sm" disabled={change.isPending} onClick={() => change.mutate()}>
      {change.isPending ? <SpinnerIcon /> : <LockIcon />}
      {closed ? 'Reopen voting' : 'Close voting'}
    </Button>
  );
}

/** One poll of the list: its question, first logos, votes so far, links and the creator's controls. */
function YourPoll({ poll }: { poll: RememberedPoll }) {
  const creatorToken = storedCreatorToken(poll.sessionId);
  const session = useQuery({
    queryKey: ['your-polls', poll.sessionId],
    // With the creator token: a poll whose results are withheld from voters still shows its creator the count.
    queryFn: () => api.getSession(poll.sessionId, { creatorToken }),
    // Each visit of the landing page reads the counts afresh, as the results page does.
    gcTime: 0,
  });
  const gone = session.error instanceof ApiError && session.error.status === 404;
  const title = poll.question ?? `Poll of ${createdText(poll.createdAt)}`;
  const closed = session.data ? votingStateOf(session.data).closed : false;

  return (
    <li data-testid="your-poll" data-session-id={poll.sessionId} data-state={gone ? 'gone' : session.status}>
      <Card className="flex flex-col gap-3 p-4">
        <div className="flex items-start gap-3">
          <div className="flex h-8 shrink-0 gap-1 sm:h-10" aria-hidden="true">
            {(session.data?.logos ?? []).slice(0, THUMBNAILS_SHOWN).map((logo) => (
              <LogoOnBackdrop key={logo.id} backdrop={logo.backdrop} className="size-8 rounded-md border border-border p-0.5 sm:size-10">
                <img
                  src={api.logoUrl(logo.filename)}
                  alt=""
                  width={40}
                  height={40}
                  loading="lazy"
                  decoding="async"
                  className="size-full object-contain"
                />
              </LogoOnBackdrop>
            ))}
          </div>
          <div className="flex min-w-0 flex-1 flex-col gap-0.5">
            <h3 className="line-clamp-2 font-medium break-words">{title}</h3>
            <p data-testid="your-poll-votes" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
              {session.isPending && 'Loading votes...'}
              {gone && 'This poll no longer exists.'}
              {session.isError && !gone && 'Votes could not be loaded.'}
              {session.data && votesText(session.data.totalVotes)}
              {closed && <Badge variant="secondary">Voting closed</Badge>}
            </p>
          </div>
          <Button
            variant="ghost"
            size="icon"
            className="-mt-1 -mr-1 size-8 shrink-0"
            aria-label={`Forget ${title}`}
            title="Forget this poll (it stays online)"
            onClick={() => forgetPoll(poll.sessionId)}
          >
            <XIcon />
          </Button>
        </div>
        {!gone && (
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => void copyLink('Voting link', poll.votingUrl)}>
              <CopyIcon />
              Copy voting link
            </Button>
            <Button variant="outline" size="sm" onClick={() => void copyLink('Results link', poll.resultsUrl)}>
              <CopyIcon />
              Copy results link
            </Button>
            <Button asChild size="sm">
              <Link to={resultsPath(poll.sessionId)}>Open results</Link>
            </Button>
            {session.data && creatorToken && (
              <VotingToggle session={session.data} creatorToken={creatorToken} onChanged={() => void session.refetch()} />
            )}
          </div>
        )}
        {!gone && (
          <CopyLinkButtons
            testId="your-poll-channels"
            title="Channel links:"
            what="Voting link"
            links={(session.data?.channels ?? []).map((channel) => ({ ...channel, url: channelVotingUrl(poll.votingUrl, channel.id) }))}
          />
        )}
      </Card>
    </li>
  );
}

/**
 * 'Your polls' on the landing page (docs/your-polls.md): the polls this browser created, newest first, above
 * the creation form; the newest POLLS_SHOWN_FIRST until the creator asks for all. Nothing is rendered while
 * there are none.
 */
export default function YourPolls({ creationForm }: { creationForm: RefObject<HTMLElement | null> }) {
  const polls = useSyncExternalStore(subscribeToRememberedPolls, rememberedPollsSnapshot);
  const [showAll, setShowAll] = useState(false);
  if (polls.length === 0) return null;
  const shown = showAll ? polls : polls.slice(0, POLLS_SHOWN_FIRST);
  const goToForm = () => {
    const form = creationForm.current;
    form?.scrollIntoView({ block: 'start' });
    form?.querySelector<HTMLElement>('input, textarea, button')?.focus({ preventScroll: true });
  };
  return (
    <section data-testid="your-polls" aria-labelledby="your-polls-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <h2 id="your-polls-title" className="text-xl font-semibold tracking-tight">
          Your polls
        </h2>
        <Button variant="link" className="h-auto px-0" onClick={goToForm}>
          Make a new poll ↓
        </Button>
      </div>
      <p className="-mt-2 text-sm text-muted-foreground">Polls made in this browser. Only you see this list.</p>
      <ul className="flex flex-col gap-3">
        {shown.map((poll) => (
          <YourPoll key={poll.sessionId} poll={poll} />
        ))}
      </ul>
      {polls.length > shown.length && (
        <Button variant="outline" className="self-center" onClick={() => setShowAll(true)}>
          Show all {polls.length} polls
        </Button>
      )}
    </section>
  );
}
