import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, EyeOffIcon, Link } from '@logovote/ui';

/**
 * The results page of a poll hidden pending review (docs/moderation.md): a notice instead of
 * the logos and their counts, until a moderator restores the poll.
 */
export function HiddenResults() {
  return (
    <Card data-testid="results-hidden" className="mx-auto w-full max-w-md text-center">
      <CardHeader className="items-center gap-3">
        <EyeOffIcon aria-hidden="true" className="size-8 text-amber-700" />
        <CardTitle>
          <h1>Results hidden pending review</h1>
        </CardTitle>
        <CardDescription className="text-balance">
          Visitors reported this poll. Its logos and results are hidden, and voting is paused, until a moderator has looked at it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild className="rounded-full">
          <Link to="/">Create New Poll</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
