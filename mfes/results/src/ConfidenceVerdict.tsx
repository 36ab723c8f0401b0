import { Link } from '@logovote/ui';
import { useMemo } from 'react';

import type { RankedLogo } from '@logovote/contracts/ranking';
import { chanceSentence, judgePoll, verdictSentence, winnerQualifier, type Verdict, type VotingState } from '@logovote/contracts/verdict';

/** The shell's page that explains the verdict in plain words (docs/confidence.md for developers); it links back to `poll`'s results. */
const confidenceHelpPath = (sessionId: string) => `/help/confidence?poll=${encodeURIComponent(sessionId)}`;

/**
 * The verdict on the ranked logos, judged again only when a count or the voting state changes (the estimate of
 * votes to settle takes a few ms); a closed poll gets its final words.
 */
export function useVerdict(ranked: readonly RankedLogo[], voting: VotingState): Verdict {
  const counts = ranked.map((item) => item.logo.voteCount).join(',');
  return useMemo(() => judgePoll(counts.split(',').map(Number), voting), [counts, voting]);
}

/**
 * Which logo voters prefer and how sure that is, which logos are out of the race, and while voting is open how
 * many more votes would settle it: one or two sentences, beside the spec's totals.
 */
export function ConfidenceVerdict({ verdict, ranked, sessionId }: { verdict: Verdict; ranked: readonly RankedLogo[]; sessionId: string }) {
  // The creator's names in the sentence too: it says which logo to pick, not only which letter.
  const sentence = verdictSentence(
    verdict,
    ranked.map((item) => `${item.label} (${item.logo.name})`),
  );
  return (
    <p
      data-testid="confidence-verdict"
      data-verdict={verdict.kind}
      data-voting={verdict.voting}
      className="text-pretty text-muted-foreground"
    >
      <span className="font-medium text-foreground">{sentence}</span>{' '}
      <Link to={confidenceHelpPath(sessionId)} className="text-sm whitespace-nowrap text-foreground underline underline-offset-4">
        How is this decided?
      </Link>
    </p>
  );
}

/** Beside the spec's 'Winner' badge: 'clear lead', or 'too close to call' ('no clear favourite' once closed), as the sentence says. */
export function WinnerQualifier({ verdict }: { verdict: Verdict }) {
  const qualifier = winnerQualifier(verdict);
  return (
    qualifier && (
      <span data-testid="winner-qualifier" className="text-xs text-muted-foreground">
        {qualifier}
      </span>
    )
  );
}

/** A logo's chance to be the favourite, on its card (`position` in ranking order); nothing without a comparison. */
export function FavouriteChance({ verdict, position }: { verdict: Verdict; position: number }) {
  if (verdict.kind === 'no-votes' || verdict.kind === 'single') return null;
  return (
    <p data-testid="favourite-chance" className="text-xs text-muted-foreground">
      {chanceSentence(verdict.chances[position]!)}
    </p>
  );
}
