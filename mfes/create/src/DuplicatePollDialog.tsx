import { Button, Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, navigate } from '@logovote/ui';

import type { RefObject } from 'react';

import { PollLinks } from './PollLinks';
import type { CreationFlow } from './use-creation-flow';

/**
 * A second 'Get Votes!' with the logos and question of a poll this browser made and left unfinished
 * (docs/your-polls.md): that poll is offered, and a new one is made only when asked for.
 */
export default function DuplicatePollDialog({ flow, opener }: { flow: CreationFlow; opener: RefObject<HTMLButtonElement | null> }) {
  const poll = flow.duplicate;
  return (
    <Dialog open={poll !== null} onOpenChange={(open) => !open && flow.dismissDuplicate()}>
      <DialogContent
        data-testid="duplicate-poll-dialog"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>You already made a poll with these logos</DialogTitle>
          <DialogDescription>
            {poll?.question ? `"${poll.question}" is` : 'It is'} ready to share, and listed under &apos;Your polls&apos; on this page.
          </DialogDescription>
        </DialogHeader>
        {poll && <PollLinks votingUrl={poll.votingUrl} resultsUrl={poll.resultsUrl} />}
        <DialogFooter>
          <Button variant="outline" onClick={flow.createAnyway}>
            Make a new poll anyway
          </Button>
          <Button autoFocus onClick={() => poll && navigate(poll.votingUrl)}>
            Open it
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
