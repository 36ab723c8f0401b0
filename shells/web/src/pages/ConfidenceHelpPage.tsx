import { ArrowLeftIcon, Button, Link, useLocation } from '@logovote/ui';

import { PageSection as Section } from './PageSection';

/** The results page the visitor came from (`?poll=<id>`, set by its link), if any. */
function useResultsPath(): string | null {
  const poll = new URLSearchParams(useLocation().search).get('poll');
  return poll && /^[A-Za-z0-9_-]{1,64}$/.test(poll) ? `/results/${poll}` : null;
}

/**
 * The plain explanation behind the results page's 'Clear lead' and 'Too close to call' (the
 * developers' version is docs/confidence.md). Static content owned by the shell, like the terms.
 */
export default function ConfidenceHelpPage() {
  const resultsPath = useResultsPath();
  return (
    <article data-page="help-confidence" className="mx-auto flex w-full max-w-3xl flex-col gap-6 leading-relaxed">
      <div>
        <Button asChild variant="ghost" className="-ml-4">
          <Link to={resultsPath ?? '/'}>
            <ArrowLeftIcon />
            {resultsPath ? 'Back to results' : 'Back to Home'}
          </Link>
        </Button>
      </div>
      <header className="flex flex-col gap-1">
        <h1 className="text-3xl font-bold tracking-tight">How is this decided?</h1>
        <p className="text-muted-foreground">What &apos;Clear lead&apos; and &apos;Too close to call&apos; mean on the results page.</p>
      </header>
      <Section title="Leader against runner-up">
        <p>
          The results page compares the two logos with the most votes. If people liked them equally, each vote between the two would be like
          tossing a fair coin: one of them would still get ahead now and then, by chance alone. So the question is how often chance alone
          would open a gap as large as the one you see.
        </p>
      </Section>
      <Section title="Clear lead">
        <p>
          A gap this large would come up by chance less than 5% of the time if both logos were equally liked. That is the usual bar for
          calling a difference real: the leader is very likely the one people prefer.
        </p>
      </Section>
      <Section title="Too close to call">
        <p>
          A gap this large comes up by chance 5% of the time or more, so the leader may just have been lucky. More votes will tell. A tie is
          always too close to call.
        </p>
      </Section>
      <Section title="Two examples">
        <ul className="list-disc space-y-1 pl-6">
          <li>
            14 votes to 6: between two equally liked logos, a gap of 8 votes or more (either way) comes up 12% of the time. Too close to
            call.
          </li>
          <li>28 votes to 12: a gap of 16 votes or more comes up 1.7% of the time. Clear lead.</li>
        </ul>
      </Section>
      <Section title="What it does not tell you">
        <ul className="list-disc space-y-1 pl-6">
          <li>Whether your voters are like the people you want to reach: that matters more than any test.</li>
          <li>Whether later voters will think the same: a lead can still change as more people vote.</li>
          <li>
            How the other logos compare with each other. The runner-up is the leader&apos;s closest rival: a leader that clearly beats it
            beats the others even more clearly.
          </li>
        </ul>
      </Section>
      <Section title="For the curious">
        <p>
          This is the exact binomial test of the leader&apos;s votes against the runner-up&apos;s, two-sided, at the 5% level: the standard
          way to compare two counts from one poll. It holds for 5 votes as for 50 000, with no approximation.
        </p>
      </Section>
    </article>
  );
}
