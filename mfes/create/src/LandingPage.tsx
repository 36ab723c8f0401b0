import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle } from '@logovote/ui';
import { useQueryClient } from '@tanstack/react-query';

import './styles.css';

/** Props the shell passes to the landing screen (route `/`). */
export type LandingPageProps = Record<string, never>;

/** Landing and creation page (walking-skeleton placeholder). */
export default function LandingPage(_props: LandingPageProps) {
  // Fails loudly if the shell's QueryClient is not shared with this remote.
  useQueryClient();
  return (
    <section data-remote="create" className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1>Landing page</h1>
          </CardTitle>
          <CardDescription>Which logo do your users like best? Upload up to 4 logos and get votes.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <p className="text-sm text-muted-foreground">
            Placeholder from the <code>logovote_create</code> remote. The upload area, feedback question and creation dialog come next.
          </p>
          <div>
            <Button disabled>Get Votes!</Button>
          </div>
        </CardContent>
      </Card>
    </section>
  );
}
