import { ArrowLeftIcon, Button, Link } from '@logovote/ui';

import { PageSection as Section } from './PageSection';

/** Terms of Use (spec sections 2 and 9). Static content owned by the shell. */
export default function TermsPage() {
  return (
    <article data-page="terms" className="mx-auto flex w-full max-w-3xl flex-col gap-6 leading-relaxed">
      <div>
        <Button asChild variant="ghost" className="-ml-4">
          <Link to="/">
            <ArrowLeftIcon />
            Back to Home
          </Link>
        </Button>
      </div>
      <header className="flex flex-col gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Terms of Use</h1>
        <p className="text-sm text-muted-foreground">
          Last updated: <time dateTime="2025-05-24">24 May 2025</time>
        </p>
      </header>
      <p>
        LogoVote lets you upload logos, share a voting link and see which logo people like best. By creating a poll or voting you agree to
        these terms.
      </p>
      <Section title="Uploading logos">
        <ul className="list-disc space-y-1 pl-6">
          <li>You can upload up to 4 logos per poll.</li>
          <li>Accepted formats are JPEG, PNG, WebP and SVG.</li>
          <li>Each logo may be at most 2MB.</li>
        </ul>
      </Section>
      <Section title="Data retention">
        <ul className="list-disc space-y-1 pl-6">
          <li>Voting sessions and their data are deleted after 30 days of inactivity.</li>
          <li>E-mail addresses and browser fingerprints are kept only for the life of the session.</li>
          <li>Images from free polls may be kept beyond 30 days to train AI models. You can opt out by contacting support.</li>
        </ul>
      </Section>
      <Section title="Plans">
        <ul className="list-disc space-y-1 pl-6">
          <li>Free: you consent to your logos, feedback and discussions being used as AI training data.</li>
          <li>Paid: $0.99 per survey; your data is kept private while the survey exists.</li>
          <li>Bulk: $4.99 for 20 surveys.</li>
          <li>During early access no payment is taken for the paid and bulk plans, and their data usage requirements are respected.</li>
        </ul>
      </Section>
      <Section title="Fair use">
        <ul className="list-disc space-y-1 pl-6">
          <li>Rate limiting applies to the API.</li>
          <li>One vote per participant per session, based on IP address and browser fingerprint.</li>
        </ul>
      </Section>
      <Section title="Content moderation">
        <p>Uploaded logos are checked automatically. Logos are rejected if they contain:</p>
        <ul className="list-disc space-y-1 pl-6">
          <li>nudity;</li>
          <li>violence;</li>
          <li>hateful content;</li>
          <li>offensive symbols;</li>
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
