import type { ResultsVisibilityState, SessionView } from '@logovote/contracts';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, EyeOffIcon, Link } from '@logovote/ui';
import { resultsVisibilityOf, votingStateOf } from '@logovote/web-client';

type WithheldUntil = NonNullable<ResultsVisibilityState['resultsWithheldUntil']>;

const NOTICE: Record<WithheldUntil, { title: string; description: string; action: string }> = {
  voted: {
    title: 'Results are shown after you vote',
    description: "The poll's creator shows the results to each voter once they have voted, so that every vote is the voter's own choice.",
    action: 'Vote now',
  },
  closed: {
    title: 'Results are shown when voting closes',
    description:
      "The poll's creator shows the results once voting has closed, so that every vote is the voter's own choice. Come back then.",
    action: 'Go to the voting page',
  },
};

/**
 * The results page of a poll whose results are withheld from this visitor (docs/results-visibility.md): a
 * notice instead of the logos and their counts, which the server did not send.
 */
export function ResultsWithheld({ session, until }: { session: SessionView; until: WithheldUntil }) {
  const notice = NOTICE[until];
  const prompt = session.feedbackPrompt?.trim();
  return (
    <Card data-testid="results-withheld" data-until={until} className="mx-auto w-full max-w-md text-center">
      <CardHeader className="items-center gap-3">
        <EyeOffIcon aria-hidden="true" className="size-8 text-primary" />
        <CardTitle>
          <h1>{notice.title}</h1>
        </CardTitle>
        {prompt && <p className="font-medium text-balance break-words">&quot;{prompt}&quot;</p>}
        <CardDescription className="text-balance">{notice.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap justify-center gap-2">
        <Button asChild className="rounded-full">
          <Link to={`/vote/${encodeURIComponent(session.sessionId)}`}>{notice.action}</Link>
        </Button>
        <Button asChild variant="outline" className="rounded-full">
          <Link to="/">Create New Poll</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/**
 * Who else sees these results, for a viewer who sees a poll with a rule (its creator, or a voter): visitors
 * only after voting or closing, or everyone once voting has closed.
 */
export function ResultsVisibilityNote({ session }: { session: SessionView }) {
  const { resultsVisibility } = resultsVisibilityOf(session);
  if (!resultsVisibility) return null;
  const text = votingStateOf(session).closed
    ? 'Voting has closed, so everyone sees these results.'
    : resultsVisibility === 'after-vote'
      ? 'Visitors see these results only after they have voted.'
      : 'Visitors see these results only when voting closes.';
  return (
    <p data-testid="results-visibility-note" className="flex items-center gap-2 text-sm text-muted-foreground">
      <EyeOffIcon aria-hidden="true" className="size-4 shrink-0" />
      {text}
    </p>
  );
}
