import type { ChannelCounts, ChannelResults as ChannelResultsView, SessionView } from '@logovote/contracts';
import { DIRECT_LINK_GROUP, rankGroup, votesText, type RankedLogo } from '@logovote/contracts/ranking';
import { judgePoll, verdictSentence, type VotingState } from '@logovote/contracts/verdict';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, CopyIcon, copyLink } from '@logovote/ui';
import { api, channelVotingUrl } from '@logovote/web-client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';

import { QrCodeButton } from './QrCodeButton';

type GroupProps = {
  name: string;
  counts: ChannelCounts;
  ranked: readonly RankedLogo[];
  voting: VotingState;
  link?: { sessionId: string; id: string };
};

/** One channel: its votes, its verdict in one sentence (judged on its own votes), and each logo's votes in it. */
function ChannelGroup({ name, counts, ranked, voting, link }: GroupProps) {
  const votes = new Map(counts.logos.map((logo) => [logo.logoId, logo.votes]));
  const standings = rankGroup(ranked, (logo) => votes.get(logo.id) ?? 0);
  // Judged again only when the group's counts change: the estimate of votes to settle takes a few ms.
  const votesKey = standings.map((standing) => standing.votes).join(',');
  const verdict = useMemo(() => judgePoll(votesKey.split(',').map(Number), voting), [votesKey, voting]);
  const sentence = verdictSentence(
    verdict,
    standings.map((standing) => standing.label),
  );
  const url = link && channelVotingUrl(`${window.location.origin}/vote/${encodeURIComponent(link.sessionId)}`, link.id);
  return (
    <li
      data-testid="channel-group"
      data-channel={link?.id ?? 'direct'}
      className="flex flex-col gap-2 border-t border-border pt-4 first:border-t-0 first:pt-0"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 className="font-semibold break-words">{name}</h3>
        <span data-testid="channel-total" className="text-sm text-muted-foreground">
          {votesText(counts.totalVotes)}
        </span>
      </div>
      <p data-testid="channel-verdict" data-verdict={verdict.kind} className="text-sm text-pretty">
        {sentence}
      </p>
      <ol aria-label={`${name}: votes per logo`} className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
        {standings.map((standing) => (
          <li key={standing.logo.id} data-testid="channel-logo" data-logo-id={standing.logo.id}>
            <span className="font-medium text-foreground">{standing.label}</span> · {standing.logo.name}: {standing.votes} (
            {standing.percent}%)
          </li>
        ))}
      </ol>
      {link && url && (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => void copyLink(`The voting link for ${name}`, url)}>
            <CopyIcon />
            Copy link
          </Button>
          <QrCodeButton sessionId={link.sessionId} channel={{ id: link.id, name }} size="sm" aria-label={`QR code for ${name}`} />
        </div>
      )}
    </li>
  );
}

/**
 * 'By channel' (docs/channels.md), beside the total: per channel its votes per logo and its own verdict (final
 * once voting has closed), then the voters of the plain link, with each channel's voting link to copy and its
 * QR code. Read again whenever the live counts change. Shown to the poll's creator only (this browser holds the
 * creator token; docs/results-visibility.md): the channels are the creator's marketing data.
 */
export function ChannelResults({
  session,
  ranked,
  voting,
  creatorToken,
}: {
  session: SessionView;
  ranked: readonly RankedLogo[];
  voting: VotingState;
  creatorToken: string;
}) {
  const counts = session.logos.map((logo) => logo.voteCount).join(',');
  const results = useQuery<ChannelResultsView>({
    queryKey: ['channels', session.sessionId, counts],
    queryFn: () => api.getChannelResults(session.sessionId, creatorToken),
    placeholderData: keepPreviousData,
  });
  if (!results.data) return null;
  const { channels, direct } = results.data;
  return (
    <Card data-testid="channel-results">
      <CardHeader>
        <CardTitle className="text-xl">
          <h2>By channel</h2>
        </CardTitle>
        <CardDescription>Each voter counts for the link they first came through.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-4">
          {channels.map((channel) => (
            <ChannelGroup
              key={channel.id}
              name={channel.name}
              counts={channel}
              ranked={ranked}
              voting={voting}
              link={{ sessionId: session.sessionId, id: channel.id }}
            />
          ))}
          {direct.totalVotes > 0 && <ChannelGroup name={DIRECT_LINK_GROUP} counts={direct} ranked={ranked} voting={voting} />}
        </ul>
      </CardContent>
    </Card>
  );
}
