import { Button, Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@logovote/ui';
import type { RefObject } from 'react';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The 'Done' button: the keyboard goes back to it on close (the dialog has no Radix trigger). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  /** The creator's name of the logo voted for, said below the spec's text. */
  votedName: string | undefined;
};

/** The 'Done' dialog (spec section 2), loaded on demand: the voting page's first load carries no dialog code. */
export default function DoneDialog({ open, onOpenChange, returnFocusTo, votedName }: Props) {
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
        <DialogFooter>
          <DialogClose asChild>
            <Button autoFocus>Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
