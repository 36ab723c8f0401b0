import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@logovote/ui';

/** Fingerprint testing tool (walking-skeleton placeholder; owned by the shell). */
export function FingerprintTestPage() {
  return (
    <section data-page="test-fingerprint" className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1>Fingerprint Testing Tool</h1>
          </CardTitle>
          <CardDescription>Inspect this browser&apos;s fingerprint and record test votes.</CardDescription>
        </CardHeader>
        <CardContent>
          <p className="text-sm text-muted-foreground">The current fingerprint, browser details and test vote history come next.</p>
        </CardContent>
      </Card>
    </section>
  );
}
