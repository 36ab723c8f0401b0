import { Button, Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, Link } from '@logovote/ui';
import type { RefObject } from 'react';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The 'Done' button: the keyboard goes back to it on close (the dialog has no Radix trigger). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  /** The creator's name of the logo voted for, said below the spec's text. */
  votedName: string | undefined;
  /** The poll's results page, when this voter may see the results now; absent while they wait for the close. */
  resultsPath: string | undefined;
};

/**
 * The 'Done' dialog (spec section 2), loaded on demand: the voting page's first load carries no dialog code.
 * Beside the spec's Close, it leads to the results the poll shows this voter (docs/results-visibility.md), or
 * says when they show; 'Close' goes back to the logos, where the vote can still be changed.
 */
export default function DoneDialog({ open, onOpenChange, returnFocusTo, votedName, resultsPath }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-testid="done-dialog"
        showClose={false}
        className="max-w-sm"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Thank you for your vote!</DialogTitle>
          <DialogDescription>Your feedback has been recorded.</DialogDescription>
        </DialogHeader>
        {votedName && (
          <p data-testid="done-voted-name" className="text-sm break-words">
            You voted for: <span className="font-medium">{votedName}</span>
          </p>
        )}
        {!resultsPath && (
          <p data-testid="done-results-later" className="text-sm text-muted-foreground">
            Results are shown when voting closes.
          </p>
        )}
        <p className="text-sm text-muted-foreground">Changed your mind? Close, choose another logo and press &lsquo;Change Vote&rsquo;.</p>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant={resultsPath ? 'outline' : 'default'} autoFocus>
              Close
            </Button>
          </DialogClose>
          {resultsPath && (
            <Button asChild>
              <Link to={resultsPath} data-testid="done-view-results">
                View results
              </Link>
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
