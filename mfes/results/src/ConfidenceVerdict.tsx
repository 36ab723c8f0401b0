import { Link } from '@logovote/ui';

import { describeVerdict, judgeLead } from './confidence';
import type { RankedLogo } from '@logovote/contracts/ranking';

/** The shell's page that explains the verdict in plain words (docs/confidence.md for developers); it links back to `poll`'s results. */
const confidenceHelpPath = (sessionId: string) => `/help/confidence?poll=${encodeURIComponent(sessionId)}`;

/** Whether the leader's lead is real or too close to call, in one line, beside the spec's totals. */
export function ConfidenceVerdict({ ranked, sessionId }: { ranked: readonly RankedLogo[]; sessionId: string }) {
  const verdict = judgeLead(ranked.map((item) => item.logo.voteCount));
  const { headline, line } = describeVerdict(
    verdict,
    ranked.map((item) => item.label),
  );
  return (
    <p data-testid="confidence-verdict" data-verdict={verdict.kind} className="text-sm text-pretty text-muted-foreground">
      <strong className="font-semibold text-foreground">{headline}:</strong> {line}{' '}
      <Link to={confidenceHelpPath(sessionId)} className="whitespace-nowrap text-foreground underline underline-offset-4">
        How is this decided?
      </Link>
    </p>
  );
}
