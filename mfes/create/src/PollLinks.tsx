import { Button, CopyIcon, copyLink, Input, Label, Tooltip, TooltipContent, TooltipTrigger } from '@logovote/ui';
import type { Channel } from '@logovote/contracts';
import { channelVotingUrl } from '@logovote/web-client';
import { useId } from 'react';

/** A link of the poll as selectable text, with a copy button. */
export function CopyableLink({ label, url }: { label: string; url: string }) {
  const inputId = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={inputId}>{label}</Label>
      <div className="flex gap-2">
        <Input id={inputId} readOnly value={url} onFocus={(event) => event.target.select()} className="font-mono text-xs md:text-xs" />
        <Tooltip>
          <TooltipTrigger asChild>
            <Button variant="outline" size="icon" onClick={() => void copyLink(label, url)} aria-label={`Copy ${label.toLowerCase()}`}>
              <CopyIcon />
            </Button>
          </TooltipTrigger>
          <TooltipContent>Copy</TooltipContent>
        </Tooltip>
      </div>
    </div>
  );
}

/**
 * The poll's voting and results links, from the moment it exists (docs/your-polls.md), and the voting link
 * of each channel when given (docs/channels.md).
 */
export function PollLinks({
  votingUrl,
  resultsUrl,
  channels,
}: {
  votingUrl: string;
  resultsUrl: string;
  channels?: readonly Channel[] | undefined;
}) {
  return (
    <div data-testid="poll-links" className="flex flex-col gap-3">
      <CopyableLink label="Voting link" url={votingUrl} />
      {channels?.map((channel) => (
        <CopyableLink key={channel.id} label={`Voting link for ${channel.name}`} url={channelVotingUrl(votingUrl, channel.id)} />
      ))}
      <CopyableLink label="Results link" url={resultsUrl} />
    </div>
  );
}
