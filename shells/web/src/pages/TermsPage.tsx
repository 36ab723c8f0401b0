import { Button, Link } from '@logovote/ui';
import type { ReactNode } from 'react';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-2">
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** Terms of Use (spec sections 2 and 9). Static content owned by the shell. */
export function TermsPage() {
  return (
    <article data-page="terms" className="mx-auto flex w-full max-w-3xl flex-col gap-6 leading-relaxed">
      <div>
        <Button asChild variant="ghost" className="-ml-4">
          <Link to="/">← Back to Home</Link>
        </Button>
      </div>
      <header className="flex flex-col gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Terms of Use</h1>
        <p className="text-sm text-muted-foreground">
          Last updated: <time dateTime="2025-05-24">May 24, 2025</time>
        </p>
      </header>
      <Section title="Uploading logos">
        <ul className="list-disc space-y-1 pl-6">
          <li>You can upload up to 4 logos per poll.</li>
          <li>Accepted formats are JPEG, PNG, WebP and SVG, with a maximum of 2MB per logo.</li>
        </ul>
      </Section>
      <Section title="Data retention">
        <ul className="list-disc space-y-1 pl-6">
          <li>Voting sessions and their data are deleted after 30 days of inactivity.</li>
          <li>E-mail addresses and browser fingerprints are kept only for the life of the session.</li>
          <li>Images from free polls may be kept beyond 30 days to train AI models. You can opt out by contacting support.</li>
        </ul>
      </Section>
      <Section title="Fair use">
        <ul className="list-disc space-y-1 pl-6">
          <li>Rate limiting applies to the API.</li>
          <li>One vote per participant per session, based on IP address and browser fingerprint.</li>
        </ul>
      </Section>
      <Section title="Content moderation">
        <p>Uploaded logos are moderated. Logos are rejected if they contain:</p>
        <ul className="list-disc space-y-1 pl-6">
          <li>nudity or sexual content;</li>
          <li>violence;</li>
          <li>hateful content or offensive symbols;</li>
          <li>gambling, drugs or weapons;</li>
          <li>human faces;</li>
          <li>copyright infringement;</li>
          <li>misleading or impersonating logos.</li>
        </ul>
        <p>Repeated violations may lead to restrictions.</p>
      </Section>
    </article>
  );
}
