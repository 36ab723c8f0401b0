import type { AdminPoll, Logo } from '@logovote/contracts';
import { Badge, Button, Card, CardContent, CardHeader, ListIcon, LogoOnBackdrop, TrashIcon } from '@logovote/ui';
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';

import { formatCreatedAt, PLAN_DESCRIPTIONS, votesLabel } from './format';
import { BrokenImageWarning, LogoImage } from './LogoImage';
import { PollActivity } from './PollActivity';
import { NO_QUESTION } from './PollList';
import { useLogoCheck } from './use-logo-check';

function Field({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className}>
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="mt-1 break-words">{children}</dd>
    </div>
  );
}

/** `hidden`: the poll is hidden pending review, and its images are read through the admin API. */
function LogoItem({ logo, hidden }: { logo: Logo; hidden: boolean }) {
  const broken = useLogoCheck(logo.filename, true, hidden) === 'broken';
  return (
    <li data-testid="detail-logo" data-broken={broken} className="flex min-w-0 flex-col gap-2 rounded-lg border border-border p-3">
      <LogoOnBackdrop backdrop={logo.backdrop} className="flex aspect-square items-center justify-center overflow-hidden rounded-md p-2">
        <LogoImage filename={logo.filename} alt={logo.originalName} broken={broken} admin={hidden} />
      </LogoOnBackdrop>
      <div className="flex min-w-0 flex-col gap-0.5">
        {/* The creator's name of the logo, above the spec's file name. */}
        <p className="text-sm font-semibold break-words" data-testid="detail-logo-given-name">
          {logo.name}
        </p>
        <p className="truncate text-sm font-medium" title={logo.originalName} data-testid="detail-logo-name">
          {logo.originalName}
        </p>
        <p className="truncate font-mono text-xs text-muted-foreground" title={logo.filename}>
          {logo.filename}
        </p>
        <p className="text-sm" data-testid="detail-logo-votes">
          {votesLabel(logo.voteCount)}
        </p>
        {broken && (
          <p className="flex items-center gap-1 text-xs font-medium text-red-700" data-testid="detail-logo-broken">
            <BrokenImageWarning name={logo.originalName} className="size-4 shrink-0" />
            Image not available
          </p>
        )}
      </div>
    </li>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="flex flex-col items-center gap-1 rounded-lg bg-muted px-2 py-3 text-center" data-testid="poll-stat">
      <dt className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</dt>
      <dd className="text-2xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

type Props = { poll: AdminPoll; onDelete: () => void; deleteButtonRef: RefObject<HTMLButtonElement | null> };

/** The detail panel of the selected poll (spec section 2). */
export function PollDetails({ poll, onDelete, deleteButtonRef }: Props) {
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // A poll chosen in the list: the keyboard and screen reader continue here (on a phone, below the list).
  useEffect(() => heading.current?.focus(), [poll.pollId]);
  const highest = poll.logos.reduce((max, logo) => Math.max(max, logo.voteCount), 0);

  return (
    <Card data-testid="poll-details" aria-labelledby={titleId} role="region">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 px-4 sm:px-6">
        <div className="flex min-w-0 flex-col gap-1">
          <h2 id={titleId} ref={heading} tabIndex={-1} className="text-xl font-semibold tracking-tight outline-none">
            Poll Details
          </h2>
          <p className="text-sm break-all text-muted-foreground">
            ID:{' '}
            <span className="font-mono text-foreground" data-testid="poll-id">
              {poll.pollId}
            </span>
          </p>
          <p className="text-sm text-muted-foreground">
            Created <time dateTime={poll.createdAt}>{formatCreatedAt(poll.createdAt)}</time>
          </p>
        </div>
        <Badge variant={poll.paymentPlan === 'free' ? 'secondary' : 'default'} data-testid="poll-plan">
          {poll.paymentPlan} plan
        </Badge>
      </CardHeader>
      <CardContent className="flex flex-col gap-6 px-4 sm:px-6">
        <dl className="grid gap-4 sm:grid-cols-2">
          <Field label="Question to Answer" className="sm:col-span-2">
            {poll.feedbackPrompt || <span className="text-muted-foreground italic">{NO_QUESTION}</span>}
          </Field>
          <Field label="Creator Email">
            {poll.creatorEmail || <span className="text-muted-foreground italic">No email provided</span>}
          </Field>
          <Field label="Payment Preference">{PLAN_DESCRIPTIONS[poll.paymentPlan]}</Field>
        </dl>

        <section aria-label="Logos" className="flex flex-col gap-3">
          <h3 className="text-sm font-medium text-muted-foreground">Logos ({poll.logos.length})</h3>
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {poll.logos.map((logo) => (
              <LogoItem key={logo.id} logo={logo} hidden={poll.hidden === true} />
            ))}
          </ul>
        </section>

        <dl className="grid grid-cols-3 gap-2 sm:gap-3">
          <Stat label="Total Votes" value={poll.totalVotes} />
          <Stat label="Logo Options" value={poll.logos.length} />
          <Stat label="Highest Votes" value={highest} />
        </dl>

        <div className="flex justify-end border-t border-border pt-6">
          <Button ref={deleteButtonRef} variant="destructive" onClick={onDelete} className="w-full sm:w-auto">
            <TrashIcon />
            Delete Poll
          </Button>
        </div>

        {/* Below the spec's panel: the keyboard reaches 'Delete Poll' right after the panel's heading. */}
        <div className="border-t border-border pt-6">
          <PollActivity pollId={poll.pollId} />
        </div>
      </CardContent>
    </Card>
  );
}

/** The detail area with no poll chosen. */
export function NoPollSelected() {
  return (
    <Card data-testid="no-poll-selected" className="flex flex-col items-center gap-2 px-6 py-12 text-center">
      <ListIcon className="mb-2 size-10 text-muted-foreground" />
      <h2 className="text-xl font-semibold tracking-tight">Select a Poll</h2>
      <p className="text-sm text-muted-foreground">Choose a poll from the sidebar to view its details</p>
    </Card>
  );
}
