import { MAX_REASON_LENGTH, reasonLength } from '@logovote/contracts/limits';
import { Button, cn, Input, Label, SpinnerIcon } from '@logovote/ui';
import { api, getFingerprint } from '@logovote/web-client';
import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';

import { useKeptInSight } from './clear-of-bar';

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
 * the whole box, its counter and messages included, stays clear of the voting view's bottom bar and of the
 * on-screen keyboard.
 */
export function ReasonBox({ sessionId, given }: ReasonBoxProps) {
  const inputId = useId();
  const [reason, setReason] = useState(given ?? '');
  /** The reason as the server holds it, once known. */
  const [stored, setStored] = useState(given);
  const [editing, setEditing] = useState(true);
  /** The voter chose 'Edit': the field takes the keyboard. */
  const [editChosen, setEditChosen] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const [typing, setTyping] = useState(false);
  useKeptInSight(form, typing && editing);
  const send = useMutation({
    mutationFn: async (text: string) => api.submitReason(sessionId, text, await getFingerprint()),
    onSuccess: (answer) => {
      setStored(answer.reason);
      setReason(answer.reason);
      setEditing(false);
    },
  });
  const length = reasonLength(reason.trim());
  const tooLong = length > MAX_REASON_LENGTH;
  const unchanged = stored !== undefined && reason.trim() === stored;
  const refused = length === 0 || tooLong || unchanged || send.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (refused) return;
    send.mutate(reason);
  };

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
    <form
      ref={form}
      data-testid="reason-box"
      onSubmit={onSubmit}
      onFocus={() => setTyping(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setTyping(false);
      }}
      className="mx-auto flex w-full max-w-md flex-col gap-1.5"
    >
      <Label htmlFor={inputId} className="text-sm font-medium">
        Why this one? <span className="font-normal text-muted-foreground">(optional)</span>
      </Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          data-testid="reason-input"
          value={reason}
          onChange={(event) => setReason(event.target.value.replace(/[\r\n]+/g, ' '))}
          placeholder="One line about your choice"
          autoComplete="off"
          enterKeyHint="send"
          autoFocus={editChosen}
          aria-invalid={tooLong}
          aria-describedby={`${inputId}-count`}
          className="flex-1"
        />
        <Button type="submit" variant="secondary" data-testid="reason-send" aria-disabled={refused}>
          {send.isPending && <SpinnerIcon />}
          {stored === undefined ? 'Send' : 'Save'}
        </Button>
      </div>
      <div className="flex justify-between gap-2 text-xs">
        <span role="alert" data-testid="reason-error" className="text-destructive">
          {send.error?.message}
        </span>
        <span
          id={`${inputId}-count`}
          data-testid="reason-count"
          className={cn('shrink-0 text-muted-foreground tabular-nums', tooLong && 'text-destructive')}
        >
          {length}/{MAX_REASON_LENGTH}
        </span>
      </div>
    </form>
  );
}
