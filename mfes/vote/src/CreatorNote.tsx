import type { SessionView } from '@logovote/contracts';
import { BarChartIcon, Button, CopyIcon, copyLink, CopyLinkButtons, Link, XIcon } from '@logovote/ui';
import { channelVotingUrl, storedCreatorToken } from '@logovote/web-client';
import { useId, useState } from 'react';

/** Set per poll once its creator hides the note in this browser. */
const HIDDEN_PREFIX = 'logovote.creatorNoteHidden.';

function hiddenHere(sessionId: string): boolean {
  try {
    return localStorage.getItem(HIDDEN_PREFIX + sessionId) !== null;
  } catch {
    return false;
  }
}

function hideHere(sessionId: string): void {
  try {
    localStorage.setItem(HIDDEN_PREFIX + sessionId, '1');
  } catch {
    // A browser that refuses storage shows the note again on the next visit.
  }
}

/**
 * 'Your poll is live' (docs/your-polls.md): on the voting page, for the poll's creator only (this browser keeps
 * the poll's creator token), where the creation dialog's 'Start Voting Now' and 'View Poll' lead. It says what
 * to do next: copy the voting link or a channel's, and watch the results. Voters never see it.
 */
export function CreatorNote({ session }: { session: SessionView }) {
  const titleId = useId();
  const { sessionId } = session;
  const [shown, setShown] = useState(() => storedCreatorToken(sessionId) !== undefined && !hiddenHere(sessionId));
  if (!shown) return null;
  const votingUrl = `${window.location.origin}/vote/${encodeURIComponent(sessionId)}`;
  return (
    <aside
      data-testid="creator-note"
      aria-labelledby={titleId}
      className="mx-auto flex w-full max-w-md flex-col gap-3 rounded-lg border border-primary/25 bg-primary/5 p-4"
    >
      <div className="flex items-start gap-2">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 id={titleId} className="font-semibold">
            Your poll is live: share it
          </h2>
          <p className="text-sm text-muted-foreground">
            Only you see this. Send the voting link to the people whose opinion counts, then watch the results come in.
          </p>
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="-mt-1 -mr-1 size-8 shrink-0"
          aria-label="Hide this note"
          title="Hide this note (the results page keeps your links)"
          onClick={() => {
            hideHere(sessionId);
            setShown(false);
          }}
        >
          <XIcon />
        </Button>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => void copyLink('Voting link', votingUrl)}>
          <CopyIcon />
          Copy voting link
        </Button>
        <Button asChild size="sm" variant="outline">
          <Link to={`/results/${encodeURIComponent(sessionId)}`}>
            <BarChartIcon />
            Watch results
          </Link>
        </Button>
      </div>
      <CopyLinkButtons
        testId="creator-note-channels"
        title="Channel links:"
        what="Voting link"
        links={(session.channels ?? []).map((channel) => ({ ...channel, url: channelVotingUrl(votingUrl, channel.id) }))}
      />
    </aside>
  );
}
