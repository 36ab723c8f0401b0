import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  SpinnerIcon,
  toast,
} from '@logovote/ui';
import { api, changeVotingState, ApiError } from '@logovote/web-client';
import { useMutation } from '@tanstack/react-query';
import type { RefObject } from 'react';

const TEXTS = {
  close: {
    title: 'Close voting?',
    description:
      'Voters will see the final results instead of the vote button, and no vote can be cast or changed. You can reopen voting at any time.',
    confirm: 'Close voting',
    doneTitle: 'Voting closed',
    doneDescription: 'Voters now see the final results.',
  },
  reopen: {
    title: 'Reopen voting?',
    description: 'Voters can vote and change their votes again, from the same voting link.',
    confirm: 'Reopen voting',
    doneTitle: 'Voting reopened',
    doneDescription: 'Voters can vote again.',
  },
} as const;

const CHANGE_FAILED = 'Could not change voting. Please try again.';

type Props = {
  sessionId: string;
  creatorToken: string;
  /** true: close voting; false: reopen it. */
  close: boolean;
  /** The dialog is done: `changed` when the server took the change. */
  onDone: (changed: boolean) => void;
  /** Where focus goes back when the dialog closes (the button that opened it). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
};

/** The confirm step of 'Close voting' and 'Reopen voting' (docs/closing.md), with its toasts. */
export default function VotingStateDialog({ sessionId, creatorToken, close, onDone, returnFocusTo }: Props) {
  const texts = close ? TEXTS.close : TEXTS.reopen;
  const change = useMutation({
    mutationFn: () => changeVotingState(api, sessionId, close, creatorToken),
    onSuccess: () => {
      toast({ title: texts.doneTitle, description: texts.doneDescription });
      onDone(true);
    },
    onError: (error) => {
      toast({ title: 'Error', description: (error instanceof ApiError && error.serverMessage) || CHANGE_FAILED, variant: 'destructive' });
      onDone(false);
    },
  });
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !change.isPending) onDone(false);
      }}
    >
      <DialogContent
        role="alertdialog"
        data-testid="voting-state-dialog"
        showClose={false}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{texts.title}</DialogTitle>
          <DialogDescription>{texts.description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onDone(false)} disabled={change.isPending}>
            Cancel
          </Button>
          <Button variant={close ? 'destructive' : 'default'} onClick={() => change.mutate()} disabled={change.isPending}>
            {change.isPending && <SpinnerIcon />}
            {texts.confirm}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
