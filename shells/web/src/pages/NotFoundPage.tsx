import { Button, Link } from '@logovote/ui';

export const NOT_FOUND_TITLE = '404 Page Not Found';

export function NotFoundPage() {
  return (
    <section data-page="not-found" className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center gap-4 text-center">
      <h1 className="text-3xl font-bold tracking-tight">{NOT_FOUND_TITLE}</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist.</p>
      <Button asChild>
        <Link to="/">Back to Home</Link>
      </Button>
    </section>
  );
}
