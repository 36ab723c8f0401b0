import type { AdminPollDetails, ChannelCounts, Logo, ResultsVisibility } from '@logovote/contracts';
import { DIRECT_LINK_GROUP } from '@logovote/contracts/ranking';
import { Badge, Button, SpinnerIcon } from '@logovote/ui';
import { api } from '@logovote/web-client';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { formatCreatedAt, votesLabel } from './format';

/** Who sees the results, as the creator chose it at creation (docs/results-visibility.md). */
const RESULTS_VISIBILITY: Record<ResultsVisibility, string> = {
  everyone: 'Everyone, at any time (the default)',
  'after-vote': 'Voters, once they have voted (everyone while closed)',
  'after-close': 'Everyone, once voting closes',
};

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section aria-label={title} data-testid={testId} className="flex flex-col gap-2">
      <h3 className="text-sm font-medium text-muted-foreground">{title}</h3>
      {children}
    </section>
  );
}

/** One channel's votes per logo (upload order), as the admin reads them. */
function ChannelRow({ name, counts, logos }: { name: string; counts: ChannelCounts; logos: readonly Logo[] }) {
  const votes = new Map(counts.logos.map((logo) => [logo.logoId, logo.votes]));
  return (
    <li data-testid="admin-channel" className="flex flex-col gap-0.5 rounded-md border border-border px-3 py-2">
      <p className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium break-words">{name}</span>
        <span className="text-sm text-muted-foreground">{votesLabel(counts.totalVotes)}</span>
      </p>
      <p className="text-sm break-words text-muted-foreground">
        {logos.map((logo) => `${logo.name}: ${votes.get(logo.id) ?? 0}`).join(' · ')}
      </p>
    </li>
  );
}

function Channels({ details }: { details: AdminPollDetails }) {
  if (!details.channels) return <p className="text-sm text-muted-foreground italic">No channels: one voting link.</p>;
  const { channels, direct } = details.channels;
  return (
    <ul className="flex flex-col gap-2">
      {channels.map((channel) => (
        <ChannelRow key={channel.id} name={channel.name} counts={channel} logos={details.logos} />
      ))}
      <ChannelRow name={DIRECT_LINK_GROUP} counts={direct} logos={details.logos} />
    </ul>
  );
}

function Reasons({ details }: { details: AdminPollDetails }) {
  const given = details.reasons.filter((logo) => logo.reasons.length > 0);
  if (given.length === 0) return <p className="text-sm text-muted-foreground italic">No reasons given yet.</p>;
  const names = new Map(details.logos.map((logo) => [logo.id, logo.name]));
  return (
    <ul className="flex flex-col gap-3">
      {given.map((logo) => (
        <li key={logo.logoId} data-testid="admin-reasons" className="flex flex-col gap-1">
          <p className="text-sm font-semibold break-words">{names.get(logo.logoId)}</p>
          <ul className="flex flex-col gap-1">
            {logo.reasons.map((reason) => (
              <li key={`${reason.at}${reason.reason}`} data-testid="admin-reason" className="text-sm break-words">
                <q>{reason.reason}</q>{' '}
                <time className="text-xs text-muted-foreground" dateTime={reason.at}>
                  {formatCreatedAt(reason.at)}
                </time>
              </li>
            ))}
          </ul>
          {logo.more && <p className="text-xs text-muted-foreground">Older reasons are in the CSV export.</p>}
        </li>
      ))}
    </ul>
  );
}

/**
 * What the admin needs beyond the spec's details to judge a poll: whether voting is open, who sees its results,
 * its channels' votes, the voters' newest reasons, its public results page and its CSV (read apart from the
 * list, when the poll is chosen).
 */
export function PollActivity({ pollId }: { pollId: string }) {
  const details = useQuery({ queryKey: ['admin', 'poll', pollId], queryFn: () => api.getAdminPollDetails(pollId) });
  if (details.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <SpinnerIcon className="size-4" />
        Loading the poll&apos;s activity...
      </p>
    );
  }
  if (details.isError) {
    return (
      <p role="alert" className="text-sm text-red-700">
        The poll&apos;s activity could not be loaded: {details.error.message}
      </p>
    );
  }
  const poll = details.data;
  return (
    <div className="flex flex-col gap-5" data-testid="poll-activity">
      <dl className="grid gap-4 sm:grid-cols-2">
        <div>
          <dt className="text-sm font-medium text-muted-foreground">Voting</dt>
          <dd className="mt-1" data-testid="poll-voting-state">
            {poll.closed ? (
              <Badge variant="secondary">Closed{poll.closedAt ? ` on ${formatCreatedAt(poll.closedAt)}` : ''}</Badge>
            ) : (
              <Badge className="bg-green-700 text-white">Open</Badge>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-muted-foreground">Who sees the results</dt>
          <dd className="mt-1 break-words" data-testid="poll-results-visibility">
            {RESULTS_VISIBILITY[poll.resultsVisibility]}
          </dd>
        </div>
      </dl>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <a href={poll.resultsUrl} target="_blank" rel="noopener noreferrer" data-testid="poll-results-link">
            Public results page
          </a>
        </Button>
        <Button asChild variant="outline" size="sm">
          <a href={api.adminResultsCsvUrl(poll.pollId)} download data-testid="poll-export-csv">
            Export CSV
          </a>
        </Button>
      </div>
      <Section title="Channels" testId="poll-channels">
        <Channels details={poll} />
      </Section>
      <Section title="Reasons (newest first)" testId="poll-reasons">
        <Reasons details={poll} />
      </Section>
    </div>
  );
}
