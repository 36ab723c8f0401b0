import type { AdminPoll, Logo } from '@logovote/contracts';
import { Badge, BarChartIcon, CalendarIcon, cn, LogoOnBackdrop } from '@logovote/ui';
import { ADMIN_THUMBNAILS_SHOWN } from '@logovote/web-client';
import { useId } from 'react';

import { formatCreatedAt, votesLabel } from './format';
import { BrokenImageWarning, LogoImage } from './LogoImage';
import { useLogoCheck, useSeenOnce } from './use-logo-check';

export const NO_QUESTION = 'No question provided';

/** `hidden`: the poll is hidden pending review, and its images are read through the admin API. */
function Thumbnail({ logo, check, hidden }: { logo: Logo; check: boolean; hidden: boolean }) {
  const broken = useLogoCheck(logo.filename, check, hidden) === 'broken';
  return (
    <li data-testid="poll-thumbnail" data-broken={broken} title={logo.name} className="relative size-11 shrink-0">
      <LogoOnBackdrop
        backdrop={logo.backdrop}
        className={cn(
          'flex size-full items-center justify-center overflow-hidden rounded-md border border-border p-1',
          broken && 'border-red-300 bg-red-50',
        )}
      >
        {broken ? (
          <BrokenImageWarning name={logo.originalName} className="size-6" />
        ) : (
          <LogoImage filename={logo.filename} alt={logo.originalName} broken={false} admin={hidden} />
        )}
      </LogoOnBackdrop>
      <Badge
        data-testid="thumbnail-votes"
        className="absolute -top-2 -right-2 min-w-5 justify-center px-1.5 py-0 text-[0.6875rem] leading-5 shadow-sm"
        title={votesLabel(logo.voteCount)}
      >
        {logo.voteCount}
        <span className="sr-only"> {logo.voteCount === 1 ? 'vote' : 'votes'}</span>
      </Badge>
    </li>
  );
}

type CardProps = { poll: AdminPoll; selected: boolean; onSelect: (pollId: string) => void };

function PollCard({ poll, selected, onSelect }: CardProps) {
  const metaId = useId();
  // Thumbnails are checked once the card can be seen (see useSeenOnce).
  const [cardRef, seen] = useSeenOnce<HTMLLIElement>();
  const shown = poll.logos.slice(0, ADMIN_THUMBNAILS_SHOWN);
  const rest = poll.logos.length - shown.length;
  return (
    <li
      ref={cardRef}
      data-testid="poll-card"
      data-poll-id={poll.pollId}
      data-selected={selected}
      className={cn(
        'relative flex flex-col gap-3 rounded-lg border border-border bg-card p-3 transition-colors hover:bg-accent has-[button:focus-visible]:ring-2 has-[button:focus-visible]:ring-ring',
        selected && 'border-primary bg-primary/5 hover:bg-primary/10',
      )}
    >
      {/* The whole card is the button's target (its ::after covers the card); the rest is read as the card's content. */}
      <button
        type="button"
        aria-current={selected ? 'true' : undefined}
        aria-describedby={metaId}
        onClick={() => onSelect(poll.pollId)}
        className={cn(
          'line-clamp-2 text-left text-sm font-medium break-words outline-none after:absolute after:inset-0 after:z-10 after:rounded-lg',
          !poll.feedbackPrompt && 'text-muted-foreground italic',
        )}
      >
        {poll.feedbackPrompt || NO_QUESTION}
      </button>
      <p id={metaId} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1">
          <CalendarIcon className="size-3.5" />
          <time dateTime={poll.createdAt} data-testid="poll-created-at">
            {formatCreatedAt(poll.createdAt)}
          </time>
        </span>
        <span className="inline-flex items-center gap-1" data-testid="poll-total-votes">
          <BarChartIcon className="size-3.5" />
          {votesLabel(poll.totalVotes)}
        </span>
      </p>
      {poll.logos.length > 0 && (
        <ul aria-label="Logos" className="flex flex-wrap gap-2.5 pt-1.5 pr-2">
          {shown.map((logo) => (
            <Thumbnail key={logo.id} logo={logo} check={seen} hidden={poll.hidden === true} />
          ))}
          {rest > 0 && (
            <li
              data-testid="poll-more-logos"
              className="flex size-11 shrink-0 items-center justify-center rounded-md border border-dashed border-border bg-muted text-sm font-semibold text-muted-foreground"
            >
              <span aria-hidden="true">+{rest}</span>
              <span className="sr-only">and {rest} more logos</span>
            </li>
          )}
        </ul>
      )}
    </li>
  );
}

type ListProps = { polls: readonly AdminPoll[]; selectedId: string | null; onSelect: (pollId: string) => void };

/** The sidebar's list of polls (spec section 2), newest first as the API gives them. */
export function PollList({ polls, selectedId, onSelect }: ListProps) {
  if (polls.length === 0) {
    return (
      <p data-testid="no-polls" className="rounded-lg border border-dashed border-border p-6 text-center text-sm text-muted-foreground">
        No polls found
      </p>
    );
  }
  return (
    <ul aria-label="Polls" className="flex flex-col gap-3">
      {polls.map((poll) => (
        <PollCard key={poll.pollId} poll={poll} selected={poll.pollId === selectedId} onSelect={onSelect} />
      ))}
    </ul>
  );
}
