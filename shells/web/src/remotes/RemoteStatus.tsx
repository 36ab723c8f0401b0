import type { RemoteName } from '@logovote/contracts';
import { Button, Card, CardContent, CardHeader, CardTitle } from '@logovote/ui';

export const REMOTE_UNAVAILABLE_MESSAGE = 'This part of LogoVote is temporarily unavailable.';

export function RemoteFallback({ remote, onRetry }: { remote: RemoteName; onRetry: () => void }) {
  return (
    <section role="alert" data-testid="remote-fallback" data-remote-fallback={remote} className="mx-auto flex w-full max-w-xl flex-col">
      <Card>
        <CardHeader>
          <CardTitle className="text-xl">{REMOTE_UNAVAILABLE_MESSAGE}</CardTitle>
        </CardHeader>
        <CardContent>
          <Button onClick={onRetry}>Try again</Button>
        </CardContent>
      </Card>
    </section>
  );
}

/** Placeholder while a screen's code loads (a remote's, or one of the shell's own pages). */
export function PageLoading({ remote }: { remote?: RemoteName }) {
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="remote-loading"
      data-remote-loading={remote}
      className="flex flex-1 items-center justify-center p-8 text-sm text-muted-foreground"
    >
      Loading…
    </div>
  );
}
