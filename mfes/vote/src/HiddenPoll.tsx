import { Button, Card, CardDescription, CardHeader, EyeOffIcon, Link } from '@logovote/ui';

/**
 * The voting page of a poll hidden pending review (docs/moderation.md): a notice instead of
 * the logos and the vote button. Nothing of the poll is shown until a moderator restores it.
 */
export function HiddenPoll() {
  return (
    <Card data-testid="poll-hidden" className="mx-auto w-full max-w-md text-center">
      <CardHeader className="items-center gap-2">
        <span className="mb-1 flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-900">
          <EyeOffIcon className="size-6" />
        </span>
        <h1 className="text-2xl font-semibold tracking-tight">This poll is hidden</h1>
        <CardDescription className="text-base text-balance">
          Visitors reported it, so it is hidden pending review. Voting is paused until a moderator has looked at it.
        </CardDescription>
        <Button asChild variant="outline" className="mt-3 rounded-full">
          <Link to="/">Create your own poll</Link>
        </Button>
      </CardHeader>
    </Card>
  );
}
