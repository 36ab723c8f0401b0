import { Button } from '@logovote/ui';
import { api, getFingerprint } from '@logovote/web-client';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { OneLineForm } from './OneLineForm';

type ReasonBoxProps = {
  sessionId: string;
  /** The reason the server holds for the current vote (a returning voter's): shown in the field, to edit. */
  given?: string | undefined;
};

/**
 * 'Why this one?' (docs/reasons.md): after a vote, an optional one-line reason for it. It sits
 * below the spec's screens and changes none of their texts; the server masks profanity and answers the
 * reason as stored, which is shown back with 'Edit'. A reason sent again replaces the one given. A
 * changed vote drops the reason, so the page gives the box a new key per voted logo. While the voter types,
 * the whole box stays clear of the voting view's bottom bar and of the on-screen keyboard (OneLineForm).
 */
export function ReasonBox({ sessionId, given }: ReasonBoxProps) {
  const [reason, setReason] = useState(given ?? '');
  /** The reason as the server holds it, once known. */
  const [stored, setStored] = useState(given);
  const [editing, setEditing] = useState(true);
  /** The voter chose 'Edit': the field takes the keyboard. */
  const [editChosen, setEditChosen] = useState(false);
  const send = useMutation({
    mutationFn: async (text: string) => api.submitReason(sessionId, text, await getFingerprint()),
    onSuccess: (answer) => {
      setStored(answer.reason);
      setReason(answer.reason);
      setEditing(false);
    },
  });
  if (!editing && stored !== undefined) {
    return (
      <div className="mx-auto flex w-full max-w-md flex-wrap items-center justify-center gap-x-2 text-center">
        <p role="status" data-testid="reason-sent" className="text-sm text-muted-foreground break-words">
          Thanks for telling us why: &ldquo;{stored}&rdquo;
        </p>
        <Button
          variant="link"
          data-testid="reason-edit"
          aria-label="Edit your reason"
          onClick={() => {
            setEditing(true);
            setEditChosen(true);
          }}
          className="h-11 px-2 text-sm"
        >
          Edit
        </Button>
      </div>
    );
  }
  return (
    <OneLineForm
      name="reason"
      label={
        <>
          Why this one? <span className="font-normal text-muted-foreground">(optional)</span>
        </>
      }
      placeholder="One line about your choice"
      value={reason}
      onValueChange={setReason}
      stored={stored}
      pending={send.isPending}
      error={send.error?.message}
      autoFocus={editChosen}
      onSend={(text) => send.mutate(text)}
    />
  );
}
