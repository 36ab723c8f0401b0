import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Link } from '@logovote/ui';
import { useQueryClient } from '@tanstack/react-query';

import './styles.css';

/** Props the shell passes to the results screen (route `/results/:sessionId`). */
export type ResultsPageProps = { sessionId: string };

/** Results page (walking-skeleton placeholder). */
export default function ResultsPage({ sessionId }: ResultsPageProps) {
  // Fails loudly if the shell's QueryClient is not shared with this remote.
  useQueryClient();
  return (
    <section data-remote="results" data-session-id={sessionId} className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1>Results page</h1>
          </CardTitle>
          <CardDescription>
            Session <code data-testid="session-id">{sessionId}</code>
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <p className="text-sm text-muted-foreground">
            Placeholder from the <code>logovote_results</code> remote. Vote counts, percentages and the winner come next.
          </p>
          <div>
            <Button asChild>
              <Link to="/">Create New Poll</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </section>
  );
}
