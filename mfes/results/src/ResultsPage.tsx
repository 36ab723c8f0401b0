import type { SessionView } from '@logovote/contracts';
import {
  BackdropToggle,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  cn,
  Icon,
  Link,
  LogoOnBackdrop,
  Progress,
  SpinnerIcon,
} from '@logovote/ui';
import { analytics, api, ApiError, isPollHidden, resultsVisibilityOf, takeCreatorToken, votingStateOf } from '@logovote/web-client';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState, type ComponentProps } from 'react';

import { logoPath } from '@logovote/contracts/logo-path';
import { rankLogos, votesText, type RankedLogo } from '@logovote/contracts/ranking';
import type { Verdict } from '@logovote/contracts/verdict';
import { ChannelResults } from './ChannelResults';
import { ConfidenceVerdict, FavouriteChance, useVerdict, WinnerQualifier } from './ConfidenceVerdict';
import { ExportCsvButton } from './ExportCsvButton';
import { QrCodeButton } from './QrCodeButton';
import { ReasonList } from './ReasonList';
import { SeeItSmall } from './SeeItSmall';
import { useLiveCounts } from './use-live-counts';
import { HiddenResults } from './HiddenResults';
import { NoVotesPrompt } from './NoVotesPrompt';
import { copyVotingLink } from './share-link';
import { loadResults, shownPagePoll } from './load-results';
import { ResultsVisibilityNote, ResultsWithheld } from './ResultsWithheld';
import { VotingControls } from './VotingControls';

import './styles.css';

// Below the cards and read after the page's load: their code (and the tabs') is not part of the first load either.
const ReasonThemes = lazy(() => import(/* webpackChunkName: "reason-themes" */ './ReasonThemes'));
const AttributeGrid = lazy(() => import(/* webpackChunkName: "attribute-grid" */ './AttributeGrid'));

/** Props the shell passes to the results screen (route `/results/:sessionId`). */
export type ResultsPageProps = { sessionId: string };

function ShareIcon(props: ComponentProps<'svg'>) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" {...props}>
      <circle cx="18" cy="5" r="3" />
      <circle cx="6" cy="12" r="3" />
      <circle cx="18" cy="19" r="3" />
      <path d="m8.6 13.5 6.8 4M15.4 6.5l-6.8 4" />
    </svg>
  );
}

function TrophyIcon(props: ComponentProps<'svg'>) {
  return (
    <Icon {...props}>
      <path d="M6 9H4.5a2.5 2.5 0 0 1 0-5H6M18 9h1.5a2.5 2.5 0 0 0 0-5H18M4 22h16M10 14.7V17c0 .6-.5 1-1 1.2-1.2.5-2 2-2 3.8M14 14.7V17c0 .6.5 1 1 1.2 1.2.5 2 2 2 3.8M18 2H6v7a6 6 0 0 0 12 0V2Z" />
    </Icon>
  );
}

type ResultCardProps = {
  ranked: RankedLogo;
  position: number;
  verdict: Verdict;
  sessionId: string;
  tabTitle: string;
  creatorToken: string | undefined;
};

function ResultCard({ ranked, position, verdict, sessionId, tabTitle, creatorToken }: ResultCardProps) {
  const { logo, label, percent, isWinner } = ranked;
  return (
    // A card's five parts share rows with its neighbour's (subgrid), so a wrapping badge or a longer name moves
    // both images alike.
    <li data-testid="result-card" data-logo-id={logo.id} className="row-span-5 grid grid-rows-subgrid gap-y-0">
      <Card
        className={cn(
          'row-span-5 grid grid-rows-subgrid gap-y-2 p-3 sm:gap-y-3 sm:p-5',
          isWinner && 'border-amber-400 ring-2 ring-amber-400',
        )}
      >
        <div className="flex min-h-6 flex-wrap items-center justify-between gap-x-2 gap-y-1 self-start">
          <h2 className="font-semibold sm:text-lg">{label}</h2>
          {isWinner && (
            <span className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-0.5">
              <span
                data-testid="winner-badge"
                className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900"
              >
                <TrophyIcon className="size-3.5" />
                Winner
              </span>
              <WinnerQualifier verdict={verdict} />
            </span>
          )}
        </div>
        <p data-testid="result-logo-name" className="-mt-1 text-sm break-words text-muted-foreground sm:-mt-2">
          {logo.name}
        </p>
        <LogoOnBackdrop backdrop={logo.backdrop} followsChoice className="aspect-square rounded-lg border border-border p-2 sm:p-4">
          <img
            src={logoPath(logo.filename)}
            alt={logo.name}
            width={320}
            height={320}
            decoding="async"
            className="size-full object-contain"
          />
        </LogoOnBackdrop>
        <div className="flex flex-col gap-2">
          <p data-testid="vote-count" className="text-lg font-semibold sm:text-xl">
            {votesText(logo.voteCount)}
          </p>
          <Progress
            value={percent}
            aria-label={`${label}: ${percent}% of total votes`}
            className={cn(isWinner && '[&>div]:bg-amber-500')}
          />
          <p data-testid="vote-percent" className="text-xs text-muted-foreground sm:text-sm">
            {percent}% of total votes
          </p>
          <FavouriteChance verdict={verdict} position={position} />
          <SeeItSmall label={label} src={logoPath(logo.filename)} backdrop={logo.backdrop} tabTitle={tabTitle} />
        </div>
        {/* The reasons for picking the logo, then the notes on what voters would change: one row of the card. */}
        <div className="flex flex-col gap-2">
          <ReasonList sessionId={sessionId} logoId={logo.id} label={label} creatorToken={creatorToken} />
          <ReasonList sessionId={sessionId} logoId={logo.id} label={label} kind="notes" creatorToken={creatorToken} />
        </div>
      </Card>
    </li>
  );
}

function Results({ session, onVotingChanged }: { session: SessionView; onVotingChanged: () => void }) {
  const ranked = rankLogos(session.logos, session.totalVotes);
  const voting = votingStateOf(session).closed ? 'closed' : 'open';
  const verdict = useVerdict(ranked, voting);
  const prompt = session.feedbackPrompt?.trim();
  const [creatorToken] = useState(() => takeCreatorToken(session.sessionId));
  return (
    <>
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1">
          <h1 className="text-3xl font-bold tracking-tight">Voting Results</h1>
          <p data-testid="total-votes" className="text-muted-foreground">
            Total votes: {session.totalVotes}
          </p>
          <ConfidenceVerdict verdict={verdict} ranked={ranked} sessionId={session.sessionId} />
          {prompt && (
            <p data-testid="results-prompt" className="mt-2 text-lg font-medium text-balance break-words">
              &quot;{prompt}&quot;
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2 self-start">
          <Button variant="outline" onClick={() => void copyVotingLink(session.sessionId)} className="self-start">
            <ShareIcon />
            Share
          </Button>
          <QrCodeButton sessionId={session.sessionId} />
        </div>
      </header>

      <VotingControls session={session} onChanged={onVotingChanged} />
      {session.totalVotes === 0 && <NoVotesPrompt sessionId={session.sessionId} />}
      <ResultsVisibilityNote session={session} />

      <BackdropToggle className="justify-start" />
      <ul aria-label="Logos by votes" className="grid grid-cols-2 gap-3 sm:gap-6">
        {ranked.map((item, position) => (
          <ResultCard
            key={item.logo.id}
            ranked={item}
            position={position}
            verdict={verdict}
            sessionId={session.sessionId}
            tabTitle={prompt || 'LogoVote'}
            creatorToken={creatorToken}
          />
        ))}
      </ul>
      <Suspense fallback={null}>
        {session.attributes?.length ? <AttributeGrid sessionId={session.sessionId} ranked={ranked} creatorToken={creatorToken} /> : null}
        <ReasonThemes sessionId={session.sessionId} ranked={ranked} creatorToken={creatorToken} />
      </Suspense>
      {/* The creator's parts (docs/results-visibility.md, "Who sees which part"): the server refuses them to anyone else. */}
      {creatorToken && session.channels?.length ? (
        <ChannelResults session={session} ranked={ranked} voting={voting} creatorToken={creatorToken} />
      ) : null}
      {creatorToken && <ExportCsvButton sessionId={session.sessionId} creatorToken={creatorToken} />}

      <Card data-testid="create-another" className="text-center">
        <CardHeader>
          <CardTitle className="text-xl">
            <h2>Want to test more logos?</h2>
          </CardTitle>
          <CardDescription>Create another poll to compare different logo options</CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild size="lg" className="rounded-full">
            <Link to="/">Create New Poll</Link>
          </Button>
        </CardContent>
      </Card>
    </>
  );
}

/**
 * The page's copy of a poll (web-client gives it once), kept from the first read until the screen that read
 * it has mounted. React renders the screen in slices and may start a render again; with gcTime 0 the query
 * built by the first attempt is dropped in between, and the next attempt needs the same copy again.
 */
const pagePollsBeforeMount = new Map<string, SessionView | undefined>();
function pagePollBeforeMount(sessionId: string): SessionView | undefined {
  if (!pagePollsBeforeMount.has(sessionId)) pagePollsBeforeMount.set(sessionId, api.takePagePoll(sessionId));
  return pagePollsBeforeMount.get(sessionId);
}

/** Results page (spec sections 2, 4 and 8, route `/results/:sessionId`). */
export default function ResultsPage({ sessionId }: ResultsPageProps) {
  const results = useQuery({
    queryKey: ['results', sessionId],
    queryFn: () => loadResults(sessionId),
    // On arrival the page's HTML holds the poll: the results show in the first render, without a frame of
    // 'Loading results...' that would move the footer.
    initialData: () => shownPagePoll(pagePollBeforeMount(sessionId)),
    // Counts change with every vote: each visit of this screen reads them afresh (no polling while it is shown).
    gcTime: 0,
  });
  useEffect(() => {
    pagePollsBeforeMount.delete(sessionId);
  }, [sessionId]);
  // Results withheld from this visitor (docs/results-visibility.md): a notice instead of the logos and counts.
  const withheldUntil = results.data && resultsVisibilityOf(results.data).resultsWithheldUntil;
  useLiveCounts(sessionId, ['results', sessionId], results.isSuccess && !isPollHidden(results.data) && !withheldUntil);

  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (reported.current === sessionId) return;
    reported.current = sessionId;
    analytics.track('results_viewed', { session_id: sessionId });
  }, [sessionId]);

  const notFound = results.error instanceof ApiError && results.error.status === 404;
  // Hidden pending review (docs/moderation.md): a notice instead of the logos and counts.
  const hidden = results.data !== undefined && isPollHidden(results.data);
  return (
    <section
      data-remote="results"
      data-session-id={sessionId}
      data-phase={
        results.isPending
          ? 'loading'
          : results.isError
            ? notFound
              ? 'not-found'
              : 'failed'
            : hidden
              ? 'hidden'
              : withheldUntil
                ? 'withheld'
                : 'results'
      }
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-6 sm:gap-8"
    >
      {results.isPending && (
        <div
          role="status"
          data-testid="results-loading"
          className="flex flex-1 items-center justify-center gap-2 p-8 text-muted-foreground"
        >
          <SpinnerIcon className="size-5" />
          Loading results...
        </div>
      )}
      {results.isError && (
        <Card
          role={notFound ? undefined : 'alert'}
          data-testid={notFound ? 'results-not-found' : 'results-unavailable'}
          className="mx-auto w-full max-w-md text-center"
        >
          <CardHeader className="items-center gap-4">
            <CardTitle>
              <h1>{notFound ? 'Results not found' : 'The results could not be loaded'}</h1>
            </CardTitle>
            <CardDescription>
              {notFound ? "The voting session you're looking for doesn't exist." : 'Please check your connection and try again.'}
            </CardDescription>
            {notFound ? (
              <Button asChild>
                <Link to="/">Back to Home</Link>
              </Button>
            ) : (
              <Button onClick={() => void results.refetch()}>Try again</Button>
            )}
          </CardHeader>
        </Card>
      )}
      {results.data && hidden && <HiddenResults />}
      {results.data && !hidden && withheldUntil && <ResultsWithheld session={results.data} until={withheldUntil} />}
      {results.data && !hidden && !withheldUntil && <Results session={results.data} onVotingChanged={() => void results.refetch()} />}
    </section>
  );
}
