import { Button, Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, SpinnerIcon } from '@logovote/ui';

export const DELETE_CONFIRMATION =
  'Are you sure you want to delete this poll? This action cannot be undone. All votes and logos associated with this poll will be permanently deleted.';

type Props = {
  open: boolean;
  deleting: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  /** Where the keyboard goes when the dialog closes (the Delete Poll button may be gone by then). */
  onCloseAutoFocus: (event: Event) => void;
};

/** The confirm dialog of 'Delete Poll' (spec section 2). */
export function DeletePollDialog({ open, deleting, onCancel, onConfirm, onCloseAutoFocus }: Props) {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !deleting) onCancel();
      }}
    >
      <DialogContent
        role="alertdialog"
        data-testid="delete-poll-dialog"
        showClose={false}
        // An alert dialog asks for an answer: a click beside it is not one.
        onInteractOutside={(event) => event.preventDefault()}
        onEscapeKeyDown={(event) => deleting && event.preventDefault()}
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <DialogHeader>
          <DialogTitle>Delete Poll</DialogTitle>
          <DialogDescription>{DELETE_CONFIRMATION}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel} disabled={deleting}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={onConfirm} disabled={deleting}>
            {deleting && <SpinnerIcon />}
            Delete Poll
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
