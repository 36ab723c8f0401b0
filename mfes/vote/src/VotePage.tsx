import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Link } from '@logovote/ui';
import { useQueryClient } from '@tanstack/react-query';

import './styles.css';

/** Props the shell passes to the voting screen (route `/vote/:sessionId`). */
export type VotePageProps = { sessionId: string };

/** Voting page (walking-skeleton placeholder). */
export default function VotePage({ sessionId }: VotePageProps) {
  // Fails loudly if the shell's QueryClient is not shared with this remote.
  useQueryClient();
  return (
    <section data-remote="vote" data-session-id={sessionId} className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1>Voting page</h1>
          </CardTitle>
          <CardDescription>
            Session <code data-testid="session-id">{sessionId}</code>
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <p className="text-sm text-muted-foreground">
            Placeholder from the <code>logovote_vote</code> remote. Logos, swipe navigation and the vote button come next.
          </p>
          <div>
            <Button asChild variant="outline">
              <Link to={`/results/${encodeURIComponent(sessionId)}`}>View all results</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </section>
  );
}
