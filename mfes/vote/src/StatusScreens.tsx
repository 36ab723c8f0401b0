import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Link, SpinnerIcon } from '@logovote/ui';

export function LoadingVotingSession() {
  return (
    <div role="status" data-testid="vote-loading" className="flex flex-1 items-center justify-center gap-2 p-8 text-muted-foreground">
      <SpinnerIcon className="size-5" />
      Loading voting session...
    </div>
  );
}

/** Spec section 2's texts, and a way home: a link that was mistyped or has expired leaves the voter nowhere else to go. */
export function VotingSessionNotFound() {
  return (
    <Card data-testid="vote-not-found" className="mx-auto w-full max-w-md text-center">
      <CardHeader>
        <CardTitle>
          <h1>Voting session not found</h1>
        </CardTitle>
        <CardDescription>The voting session you&apos;re looking for doesn&apos;t exist or has expired.</CardDescription>
      </CardHeader>
      <CardContent className="flex justify-center">
        <Button asChild size="lg" variant="outline" className="rounded-full">
          <Link to="/">Back to Home</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/** The session lookup failed for another reason than a missing poll (service down, rate limit): say so, offer a retry. */
export function VotingSessionUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <Card role="alert" data-testid="vote-unavailable" className="mx-auto w-full max-w-md text-center">
      <CardHeader className="items-center gap-4">
        <CardTitle>
          <h1>The voting session could not be loaded</h1>
        </CardTitle>
        <CardDescription>Please check your connection and try again.</CardDescription>
        <Button onClick={onRetry}>Try again</Button>
      </CardHeader>
    </Card>
  );
}
