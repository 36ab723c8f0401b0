import { judgePoll, verdictSentence, type VotingState } from '@logovote/contracts/verdict';
import { ArrowLeftIcon, Button, Link, useLocation } from '@logovote/ui';

import { PageSection as Section } from './PageSection';

const LABELS = ['Logo A', 'Logo B', 'Logo C', 'Logo D'];

/** The examples, worded by the results page's own code, so the two always say the same. */
const EXAMPLES: { counts: number[]; voting: VotingState; meaning: string }[] = [
  { counts: [14, 6], voting: 'open', meaning: 'You can pick Logo A.' },
  { counts: [7, 5], voting: 'open', meaning: 'Too close to call: share the link with more people.' },
  {
    counts: [10, 6, 3, 1],
    voting: 'open',
    meaning: 'Too close to call, but you can already set Logo C and Logo D aside.',
  },
  { counts: [10, 6, 3, 1], voting: 'closed', meaning: 'The same poll once voting has closed: final words, no call for more votes.' },
];

/** '14 votes to 6', '10 / 6 / 3 / 1 votes'. */
const countsText = (counts: readonly number[]) =>
  counts.length === 2 ? `${counts[0]} votes to ${counts[1]}` : `${counts.join(' / ')} votes`;

/** The results page the visitor came from (`?poll=<id>`, set by its link), if any. */
function useResultsPath(): string | null {
  const poll = new URLSearchParams(useLocation().search).get('poll');
  return poll && /^[A-Za-z0-9_-]{1,64}$/.test(poll) ? `/results/${poll}` : null;
}

/**
 * The plain explanation behind the results page's verdict: 'clear favourite', 'leads; about N more votes', the
 * logos out of the race, a closed poll's final words, the cards' chances and the qualifier beside 'Winner' (the
 * developers' version is docs/confidence.md). Content owned by the shell, like the terms; its examples are worded
 * by @logovote/contracts/verdict, as on the results page.
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
          &quot;Logo A leads; about 40 more votes would likely settle it (at least 10 more)&quot; means Logo A is ahead but not by enough
          yet. If voting goes on as it has, about 40 more votes would probably be enough to call a clear favourite; that figure is rough,
          but fewer than 10 more will very likely not do it. Where the likely numbers are close together, the page gives them as a range
          instead (&quot;somewhere between 200 and 900&quot;). Until a logo is the clear favourite, the &apos;Winner&apos; badge says
          &apos;too close to call&apos;, and so does a tie.
        </p>
      </Section>
      <Section title="Out of the race">
        <p>
          &quot;It is between Logo A and Logo B: Logo C and Logo D are very unlikely to be the favourite&quot; means each of Logo C and Logo
          D has less than a 2 in 100 chance to be the one most people prefer (its card shows 1% or less). You can set them aside and keep
          asking about the others. We call a logo out of the race only where, in thousands of simulated polls of 10 to 100 voters, such a
          call was wrong (the logo set aside was in fact the favourite) at most 5 times in 100. The two logos with the most votes are always
          in the race.
        </p>
      </Section>
      <Section title="When voting has closed">
        <p>
          A closed poll gets a final sentence: &quot;Voting closed: Logo A is the clear favourite&quot;, or &quot;Voting closed with no
          clear favourite: Logo A led with an 81% chance to be the most preferred&quot;. It no longer asks for more votes, and the
          &apos;Winner&apos; badge says &apos;no clear favourite&apos; instead of &apos;too close to call&apos;. If you reopen voting, the
          page goes back to how many more votes would settle it.
        </p>
      </Section>
      <Section title="Examples">
        <ul className="list-disc space-y-2 pl-6">
          {EXAMPLES.map(({ counts, voting, meaning }) => (
            <li key={`${counts.join('-')}-${voting}`} data-testid="help-example">
              {countsText(counts)}
              {voting === 'closed' ? ', voting closed' : ''}: &quot;{verdictSentence(judgePoll(counts, voting), LABELS)}&quot; {meaning}
            </li>
          ))}
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
          worked out for many plausible splits of the voters: the middle one is shown, with the number that 9 splits in 10 need at least. We
          tested it on thousands of simulated polls whose true preferences we knew: a &apos;clear favourite&apos; named the wrong logo in
          about 1 call in 100, and a logo set aside as out of the race was the favourite in about 1 call in 100.
        </p>
      </Section>
    </article>
  );
}
