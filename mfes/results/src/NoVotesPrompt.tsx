import { Button, Card, CopyIcon } from '@logovote/ui';

import { QrCodeButton } from './QrCodeButton';
import { copyVotingLink } from './share-link';

/** Above the cards of a poll without votes: the next step is to share the voting link (docs/sharing.md). */
export function NoVotesPrompt({ sessionId }: { sessionId: string }) {
  return (
    <Card
      data-testid="no-votes-prompt"
      className="flex flex-col gap-3 border-primary/40 bg-primary/5 p-4 sm:flex-row sm:items-center sm:justify-between sm:p-5"
    >
      <div className="flex flex-col gap-0.5">
        <h2 className="font-semibold">Share the voting link to get votes</h2>
        <p className="text-sm text-muted-foreground">Nobody has voted yet. Send the link, or let people scan its QR code.</p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2 sm:flex-nowrap">
        <Button onClick={() => void copyVotingLink(sessionId)}>
          <CopyIcon />
          Copy link
        </Button>
        <QrCodeButton sessionId={sessionId} label="Show QR code" />
      </div>
    </Card>
  );
}
