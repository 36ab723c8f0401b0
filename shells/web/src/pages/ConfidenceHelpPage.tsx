import { ArrowLeftIcon, Button, Link, useLocation } from '@logovote/ui';

import { PageSection as Section } from './PageSection';

/** The results page the visitor came from (`?poll=<id>`, set by its link), if any. */
function useResultsPath(): string | null {
  const poll = new URLSearchParams(useLocation().search).get('poll');
  return poll && /^[A-Za-z0-9_-]{1,64}$/.test(poll) ? `/results/${poll}` : null;
}

/**
 * The plain explanation behind the results page's verdict: 'clear favourite', 'leads; about N more votes', the
 * cards' chances and the qualifier beside 'Winner' (the developers' version is docs/confidence.md). Static
 * content owned by the shell, like the terms.
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
        <p className="text-muted-foreground">What the sentence at the top of your results means, and how sure it is.</p>
      </header>
      <Section title="The votes are a sample">
        <p>
          The people who voted so far stand in for everyone you care about. The results page asks how sure you can be that the logo in front
          would still be in front if all of them voted, and gives each logo its chance to be the favourite.
        </p>
      </Section>
      <Section title="Clear favourite">
        <p>
          &quot;Logo A is the clear favourite: 96% likely to be the most preferred&quot; means that, given the votes so far, there is a 96
          in 100 chance that Logo A is the one most people prefer. We say &apos;clear favourite&apos; from 95 in 100, and the
          &apos;Winner&apos; badge then says &apos;clear lead&apos;. You can pick it.
        </p>
      </Section>
      <Section title="Too close to call">
        <p>
          &quot;Logo A leads; about 70 more votes would likely settle it&quot; means Logo A is ahead but not by enough yet: if voting goes
          on as it has, about that many more votes would probably be enough to call a clear favourite. The figure is rough, so the page
          gives a range with it; early on the range is wide. When the page says &apos;between Logo A and Logo B&apos;, the other logos are
          out of the running. Until then the &apos;Winner&apos; badge says &apos;too close to call&apos;, and so does a tie.
        </p>
      </Section>
      <Section title="Two examples">
        <ul className="list-disc space-y-1 pl-6">
          <li>14 votes to 6: Logo A is 96% likely to be the most preferred. Clear favourite.</li>
          <li>7 votes to 5: Logo A is 70% likely to be the most preferred. Too close to call; share the link with more people.</li>
        </ul>
      </Section>
      <Section title="What it assumes">
        <ul className="list-disc space-y-1 pl-6">
          <li>One vote per person.</li>
          <li>Your voters are like the people you want to reach: if only your team voted, the verdict is about your team.</li>
          <li>Tastes do not change while the votes come in: the first voters and the last like the same things.</li>
        </ul>
      </Section>
      <Section title="For the curious">
        <p>
          Each logo&apos;s chance is the probability that its share of all voters is the largest, given the votes so far and no opinion
          before them (a Bayesian model: a uniform prior over the shares, updated by the counts). The number of votes to settle a lead is
          worked out for many plausible splits of the voters, and the middle one is shown, with the range that holds most of them. We tested
          it on thousands of simulated polls whose true preferences we knew: a &apos;clear favourite&apos; named the wrong logo in about 1
          call in 100.
        </p>
      </Section>
    </article>
  );
}
