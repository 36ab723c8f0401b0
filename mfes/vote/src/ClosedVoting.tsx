import type { Logo, SessionView } from '@logovote/contracts';
import { labelWithName, rankLogos, votesText } from '@logovote/contracts/ranking';
import { Button, Card, CardContent, CardDescription, CardHeader, cn, Link, LockIcon, LogoOnBackdrop, Progress } from '@logovote/ui';

import { logoPath } from '@logovote/contracts/logo-path';

type Props = {
  session: SessionView;
  /** The logo this visitor voted for, if any (marked 'Your vote'). */
  votedLogoId: string | null;
};

/**
 * The voting page of a closed poll (docs/closing.md): instead of the vote button, a notice and the
 * final results, ranked, labelled and crowned as the results page does it (rankLogos of @logovote/contracts).
 */
export function ClosedVoting({ session, votedLogoId }: Props) {
  const ranked = rankLogos<Logo>(session.logos, session.totalVotes);
  const prompt = session.feedbackPrompt?.trim();
  return (
    <div data-testid="voting-closed" className="mx-auto flex w-full max-w-xl flex-col gap-4">
      <Card className="text-center">
        <CardHeader className="items-center gap-2">
          <span className="mb-1 flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-900">
            <LockIcon className="size-6" />
          </span>
          <h1 className="text-2xl font-semibold tracking-tight">Voting has closed</h1>
          <CardDescription className="text-base">
            The creator has closed this poll. These are its final results: {votesText(session.totalVotes)} in all.
          </CardDescription>
          {prompt && <p className="mt-1 font-medium text-balance break-words">&quot;{prompt}&quot;</p>}
        </CardHeader>
      </Card>
      <ol aria-label="Final results" className="flex flex-col gap-3">
        {ranked.map(({ logo, label, percent, isWinner }) => (
          <li key={logo.id} data-testid="final-result" data-logo-id={logo.id}>
            <Card className={cn('flex items-center gap-3 p-3 sm:gap-4 sm:p-4', isWinner && 'border-amber-400 ring-2 ring-amber-400')}>
              <LogoOnBackdrop
                backdrop={logo.backdrop}
                followsChoice
                className="size-16 shrink-0 rounded-lg border border-border p-1.5 sm:size-20"
              >
                <img
                  src={logoPath(logo.filename)}
                  alt={labelWithName(label, logo.name)}
                  width={80}
                  height={80}
                  decoding="async"
                  className="size-full object-contain"
                />
              </LogoOnBackdrop>
              <CardContent className="flex min-w-0 flex-1 flex-col gap-1.5 p-0">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <h2 className="font-semibold">{label}</h2>
                  {isWinner && (
                    <span data-testid="final-winner" className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                      Winner
                    </span>
                  )}
                  {logo.id === votedLogoId && (
                    <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">Your vote</span>
                  )}
                </div>
                <p data-testid="final-logo-name" className="text-sm break-words text-muted-foreground">
                  {logo.name}
                </p>
                <p className="text-sm">
                  <span data-testid="final-votes" className="font-semibold">
                    {votesText(logo.voteCount)}
                  </span>
                  <span className="text-muted-foreground"> · </span>
                  <span data-testid="final-percent" className="text-muted-foreground">
                    {percent}% of total votes
                  </span>
                </p>
                <Progress
                  value={percent}
                  aria-label={`${label}: ${percent}% of total votes`}
                  className={cn(isWinner && '[&>div]:bg-amber-500')}
                />
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>
      <Button asChild size="lg" variant="outline" className="self-center rounded-full">
        <Link to={`/results/${encodeURIComponent(session.sessionId)}`}>View all results</Link>
      </Button>
    </div>
  );
}
