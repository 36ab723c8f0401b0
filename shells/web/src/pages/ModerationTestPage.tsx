import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@logovote/ui';

/** Image moderation test tool (walking-skeleton placeholder; owned by the shell). */
export function ModerationTestPage() {
  return (
    <section data-page="test-moderate" className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1>Image Moderation Test</h1>
          </CardTitle>
          <CardDescription>Upload an image to check it against the content moderation rules.</CardDescription>
        </CardHeader>
        <CardContent>
          <p className="text-sm text-muted-foreground">The image picker, preview and result tabs come next.</p>
        </CardContent>
      </Card>
    </section>
  );
}
