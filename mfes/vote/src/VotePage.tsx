import type { Logo, SessionView } from '@logovote/contracts';
import {
  BackdropToggle,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CheckIcon,
  cn,
  Link,
  LogoOnBackdrop,
  SpinnerIcon,
} from '@logovote/ui';
import { unseenLogosText } from '@logovote/web-client';
import { lazy, Suspense, useEffect, useId, useRef, useState, type RefObject } from 'react';

import { useBarHeight } from './clear-of-bar';
import { ClosedVoting } from './ClosedVoting';
import { CreatorNote } from './CreatorNote';
import { HiddenPoll } from './HiddenPoll';
import { LogoCarousel } from './LogoCarousel';
import { logoPath } from '@logovote/contracts/logo-path';
import { LOGO_BOX_PX, usePreloadedLogos } from './logos';
import { NoteBox } from './NoteBox';
import { ReasonBox } from './ReasonBox';
import { ReportPoll } from './ReportPoll';
import { resultsPathAfterVote } from './results-access';
import { useSeenLogos } from './seen-logos';
import { LoadingVotingSession, VotingSessionNotFound, VotingSessionUnavailable } from './StatusScreens';
import { useSwipeHint } from './swipe-hint';
import { useVoting } from './use-voting';

import './styles.css';

/** Props the shell passes to the voting screen (route `/vote/:sessionId`). */
export type VotePageProps = { sessionId: string };

const loadDoneDialog = () => import(/* webpackChunkName: "done-dialog" */ './DoneDialog');
const DoneDialog = lazy(loadDoneDialog);
// Only a poll with attributes (docs/attributes.md) needs the questions' code, and only after a vote.
const AttributeQuestions = lazy(() => import(/* webpackChunkName: "attribute-questions" */ './AttributeQuestions'));

/** The left and right arrow keys move between logos, unless a field, a dialog or a modifier has them. */
function useArrowKeys(onPrevious: () => void, onNext: () => void, enabled: boolean) {
  const handlers = useRef({ onPrevious, onNext });
  handlers.current = { onPrevious, onNext };
  useEffect(() => {
    if (!enabled) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.target instanceof Element && event.target.closest('input, textarea, select, [contenteditable], [role="dialog"]')) return;
      if (event.key === 'ArrowLeft') handlers.current.onPrevious();
      else if (event.key === 'ArrowRight') handlers.current.onNext();
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}

type MainButtonProps = {
  isSubmitting: boolean;
  hasVoted: boolean;
  currentIsVoted: boolean;
  hasLogo: boolean;
  /** The id of the bar's line on logos not seen yet, when it shows. */
  describedBy: string | undefined;
  onVote: () => void;
  ref: RefObject<HTMLButtonElement | null>;
};

/** Spec section 2: 'Vote', then 'Change Vote', or 'Voted!' (green check) on the voted logo; 'Submitting...' while pending. */
function MainButton({ isSubmitting, hasVoted, currentIsVoted, hasLogo, describedBy, onVote, ref }: MainButtonProps) {
  const settled = currentIsVoted && !isSubmitting;
  return (
    <Button
      size="lg"
      ref={ref}
      data-testid="vote-button"
      aria-describedby={describedBy}
      // aria-disabled rather than disabled: keyboard focus stays on the button while the vote is sent.
      // Spec section 5: voting requires a current logo.
      aria-disabled={isSubmitting || currentIsVoted || !hasLogo}
      onClick={onVote}
      variant={settled ? 'outline' : 'default'}
      className={cn(
        // No colour transition: the look changes with the state, at once.
        'h-12 flex-1 rounded-full text-base transition-none',
        settled && 'border-2 border-green-600 text-green-700 hover:bg-green-50 hover:text-green-700',
        isSubmitting && 'cursor-wait',
      )}
    >
      {isSubmitting && <SpinnerIcon />}
      {settled && <CheckIcon className="text-green-600" strokeWidth={3} />}
      {isSubmitting ? 'Submitting...' : currentIsVoted ? 'Voted!' : hasVoted ? 'Change Vote' : 'Vote'}
    </Button>
  );
}

type VotingViewProps = { session: SessionView; voting: ReturnType<typeof useVoting> };

function VotingView({ session, voting }: VotingViewProps) {
  const { logos } = session;
  // A returning voter changing the vote starts on the logo voted for.
  const [index, setIndex] = useState(() =>
    Math.max(0, voting.changingVote ? logos.findIndex((logo) => logo.id === voting.votedLogoId) : 0),
  );
  const [doneOpen, setDoneOpen] = useState(false);
  const doneButton = useRef<HTMLButtonElement>(null);
  const current: Logo | undefined = logos[index];
  const { unseen, sawAll } = useSeenLogos(session.sessionId, logos, current?.id);
  const swipeHint = useSwipeHint(logos.length);
  const unseenId = useId();
  const mainButton = useRef<HTMLButtonElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  usePreloadedLogos(logos);
  useBarHeight(bar);
  // Once this voter has a vote, the results they may now see are one tap away (docs/results-visibility.md).
  const hasVote = voting.votedThisVisit || voting.serverVotedLogoId !== null;
  const resultsPath = resultsPathAfterVote(session);

  // After 'Change my vote' the confirmation screen is gone: the keyboard continues on the vote button.
  const [arrivedToChange] = useState(voting.changingVote);
  useEffect(() => {
    if (arrivedToChange) mainButton.current?.focus();
  }, [arrivedToChange]);

  const show = (to: number) => {
    swipeHint.dismiss();
    setIndex((to + logos.length) % logos.length);
  };
  const previous = () => show(index - 1);
  const next = () => {
    voting.reportNext(current);
    show(index + 1);
  };
  useArrowKeys(previous, next, logos.length > 1 && !doneOpen);

  // The dialog's code is fetched once there is something to be done with, so 'Done' opens without a wait.
  useEffect(() => {
    if (voting.votedThisVisit) void loadDoneDialog();
  }, [voting.votedThisVisit]);

  const prompt = session.feedbackPrompt?.trim();
  return (
    <>
      <div className="flex flex-col items-center gap-4">
        {prompt ? (
          <h1
            data-testid="feedback-banner"
            className="w-full max-w-md rounded-lg border border-primary/25 bg-primary/5 px-4 py-3 text-center text-base font-medium text-balance break-words sm:text-lg"
          >
            {prompt}
          </h1>
        ) : (
          <h1 className="sr-only">Vote for your favourite logo</h1>
        )}
        <LogoCarousel
          logos={logos}
          index={index}
          votedLogoId={voting.votedLogoId}
          showSwipeHint={swipeHint.shown}
          onPrevious={previous}
          onNext={next}
          onSelect={show}
        />
      </div>
      {voting.votedThisVisit && !voting.isSubmitting && voting.votedLogoId && (
        <ReasonBox key={voting.votedLogoId} sessionId={session.sessionId} />
      )}
      {/* Kept while a changed vote is sent: the answers belong to the voter, not to the logo voted for. */}
      {voting.votedThisVisit && voting.votedLogoId && session.attributes?.length ? (
        <Suspense fallback={null}>
          <AttributeQuestions sessionId={session.sessionId} attributes={session.attributes} logos={logos} />
        </Suspense>
      ) : null}
      {/* A voter may say what it would change about any logo it sees, voted for or not (docs/reasons.md, "Notes"). */}
      {voting.votedLogoId !== null && !voting.isSubmitting && current && (
        <NoteBox key={current.id} sessionId={session.sessionId} logo={current} />
      )}

      {/* The bottom bar: at the bottom of the screen while the page scrolls, above the footer at its end. */}
      <div
        ref={bar}
        data-testid="vote-bar"
        className="sticky bottom-0 z-30 -mx-4 mt-auto flex flex-wrap justify-center gap-3 border-t border-border bg-background/95 px-4 py-3 backdrop-blur sm:mx-auto sm:w-full sm:max-w-md sm:rounded-xl sm:border"
      >
        {voting.solvingProof && (
          <p role="status" data-testid="proof-of-work-status" className="w-full text-center text-sm text-muted-foreground">
            Many people have voted from your network. Your device is doing a short check so that each vote counts once: this can take a few
            seconds.
          </p>
        )}
        {unseen > 0 && (
          <p id={unseenId} data-testid="unseen-count" className="w-full text-center text-sm text-muted-foreground">
            {unseenLogosText(unseen)}
          </p>
        )}
        {hasVote && !voting.isSubmitting && resultsPath && (
          <Button asChild variant="link" className="-my-2 h-11 w-full text-sm">
            <Link to={resultsPath} data-testid="bar-view-results">
              View results
            </Link>
          </Button>
        )}
        {voting.votedThisVisit && (
          <Button
            ref={doneButton}
            size="lg"
            variant="outline"
            aria-haspopup="dialog"
            onClick={() => setDoneOpen(true)}
            className="h-12 rounded-full px-6 text-base"
          >
            Done
          </Button>
        )}
        <MainButton
          isSubmitting={voting.isSubmitting}
          hasVoted={voting.votedLogoId !== null}
          currentIsVoted={current !== undefined && current.id === voting.votedLogoId}
          hasLogo={current !== undefined}
          ref={mainButton}
          describedBy={unseen > 0 ? unseenId : undefined}
          onVote={() => voting.castVote(current, sawAll)}
        />
      </div>

      {/* After the bar, so the keyboard reaches the vote first. */}
      <BackdropToggle className="mt-4" />
      <ReportPoll sessionId={session.sessionId} />

      {voting.votedThisVisit && (
        <Suspense fallback={null}>
          <DoneDialog
            open={doneOpen}
            onOpenChange={setDoneOpen}
            returnFocusTo={doneButton}
            votedName={logos.find((logo) => logo.id === voting.votedLogoId)?.name}
            resultsPath={resultsPath}
          />
        </Suspense>
      )}
    </>
  );
}

type VoteConfirmationProps = { session: SessionView; logoId: string | null; onChangeVote: () => void };

/** Spec section 2: shown when the server says this visitor has already voted; 'Change my vote' goes back to the logos. */
function VoteConfirmation({ session, logoId, onChangeVote }: VoteConfirmationProps) {
  const logo = session.logos.find((item) => item.id === logoId);
  return (
    <Card data-testid="vote-confirmation" className="mx-auto w-full max-w-md text-center">
      <CardHeader className="items-center">
        <span className="mb-2 flex size-14 items-center justify-center rounded-full bg-green-100 text-green-700">
          <CheckIcon className="size-8" strokeWidth={3} />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight">Vote submitted!</h1>
        <CardDescription className="text-base">Thank you for your feedback</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col items-center gap-3">
        {logo && (
          <>
            <p className="text-sm font-medium">You voted for:</p>
            <LogoOnBackdrop
              backdrop={logo.backdrop}
              followsChoice
              className="aspect-square w-48 rounded-xl border border-border p-3 shadow-sm"
            >
              <img
                src={logoPath(logo.filename)}
                alt={logo.name}
                width={LOGO_BOX_PX}
                height={LOGO_BOX_PX}
                decoding="async"
                fetchPriority="high"
                data-testid="voted-logo"
                className="size-full object-contain"
              />
            </LogoOnBackdrop>
            <p data-testid="voted-logo-name" className="max-w-full text-base font-medium break-words">
              {logo.name}
            </p>
          </>
        )}
        <div className="mt-3 flex flex-wrap justify-center gap-3">
          <Button asChild size="lg" className="rounded-full">
            <Link to={`/results/${encodeURIComponent(session.sessionId)}`}>View all results</Link>
          </Button>
          <Button size="lg" variant="outline" data-testid="change-my-vote" onClick={onChangeVote} className="rounded-full">
            Change my vote
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function VoteScreen({ sessionId }: VotePageProps) {
  const voting = useVoting(sessionId);
  const { phase, session } = voting;
  return (
    <section
      data-remote="vote"
      data-session-id={sessionId}
      data-phase={phase}
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-6"
    >
      {(phase === 'voting' || phase === 'confirmation') && session && <CreatorNote session={session} />}
      {phase === 'loading' && <LoadingVotingSession />}
      {phase === 'not-found' && <VotingSessionNotFound />}
      {phase === 'failed' && <VotingSessionUnavailable onRetry={voting.retry} />}
      {phase === 'hidden' && <HiddenPoll />}
      {phase === 'closed' && session && <ClosedVoting session={session} votedLogoId={voting.serverVotedLogoId} />}
      {phase === 'confirmation' && session && (
        <VoteConfirmation session={session} logoId={voting.serverVotedLogoId} onChangeVote={voting.changeVote} />
      )}
      {phase === 'confirmation' && session && <ReasonBox sessionId={session.sessionId} given={voting.givenReason} />}
      {phase === 'confirmation' && session?.attributes?.length ? (
        <Suspense fallback={null}>
          <AttributeQuestions sessionId={session.sessionId} attributes={session.attributes} logos={session.logos} />
        </Suspense>
      ) : null}
      {phase === 'confirmation' && session && <ReportPoll sessionId={session.sessionId} />}
      {phase === 'voting' && session && <VotingView session={session} voting={voting} />}
    </section>
  );
}

/** Voting page (spec sections 2, 4 and 8, route `/vote/:sessionId`). */
export default function VotePage({ sessionId }: VotePageProps) {
  // A new poll starts from scratch (position, this visit's vote).
  return <VoteScreen key={sessionId} sessionId={sessionId} />;
}
