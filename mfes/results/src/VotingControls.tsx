import type { SessionView } from '@logovote/contracts';
import { Button, Card, LockIcon } from '@logovote/ui';
import { takeCreatorToken, votingStateOf } from '@logovote/web-client';
import { lazy, Suspense, useRef, useState } from 'react';

// The confirm step is fetched only by the poll's creator (this browser holds the token), when asked for.
const loadConfirmDialog = () => import(/* webpackChunkName: "voting-state-dialog" */ './VotingStateDialog');
const VotingStateDialog = lazy(loadConfirmDialog);

/** 'May 24, 2025, 10:30 AM' in the visitor's own locale and time zone. */
const closedAtText = (closedAt: string) => new Date(closedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

type Props = { session: SessionView; onChanged: () => void };

/**
 * The results page's part of closing a poll (docs/closing.md): a notice while voting is closed, and for
 * the poll's creator (this browser holds the creator token, kept at creation or brought by the e-mail's
 * manage link) 'Close voting' / 'Reopen voting' with a confirm step.
 */
export function VotingControls({ session, onChanged }: Props) {
  const { closed, closedAt } = votingStateOf(session);
  const [creatorToken] = useState(() => takeCreatorToken(session.sessionId));
  const [confirming, setConfirming] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  if (!closed && !creatorToken) return null;
  return (
    <Card
      data-testid="voting-controls"
      data-closed={closed}
      className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5"
    >
      <div className="flex items-start gap-3">
        <span
          className={
            closed
              ? 'flex size-9 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-900'
              : 'flex size-9 shrink-0 items-center justify-center rounded-full bg-green-100 text-green-800'
          }
        >
          <LockIcon className="size-4.5" />
        </span>
        <div className="flex flex-col gap-0.5">
          <p data-testid="voting-state" className="font-semibold">
            {closed ? 'Voting has closed' : 'Voting is open'}
          </p>
          <p className="text-sm text-muted-foreground">
            {closed
              ? `These are the final results${closedAt ? ` (closed ${closedAtText(closedAt)})` : ''}.`
              : 'You created this poll: you can close voting when you have enough votes.'}
          </p>
        </div>
      </div>
      {creatorToken && (
        <>
          <Button
            ref={opener}
            variant={closed ? 'default' : 'outline'}
            className="shrink-0 self-start sm:self-center"
            onClick={() => setConfirming(true)}
            onPointerEnter={() => void loadConfirmDialog()}
          >
            {closed ? 'Reopen voting' : 'Close voting'}
          </Button>
          {confirming && (
            <Suspense fallback={null}>
              <VotingStateDialog
                sessionId={session.sessionId}
                creatorToken={creatorToken}
                close={!closed}
                returnFocusTo={opener}
                onDone={(changed) => {
                  setConfirming(false);
                  if (changed) onChanged();
                }}
              />
            </Suspense>
          )}
        </>
      )}
    </Card>
  );
}
