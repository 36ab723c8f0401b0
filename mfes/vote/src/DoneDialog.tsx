import { Button, Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@logovote/ui';

type Props = { open: boolean; onOpenChange: (open: boolean) => void };

/** The 'Done' dialog (spec section 2), loaded on demand: the voting page's first load carries no dialog code. */
export default function DoneDialog({ open, onOpenChange }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="done-dialog" showClose={false} className="max-w-sm">
        <DialogHeader>
          <DialogTitle>Thank you for your vote!</DialogTitle>
          <DialogDescription>Your feedback has been recorded.</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button autoFocus>Close</Button>
          </DialogClose>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
