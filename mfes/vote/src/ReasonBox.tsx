import { MAX_REASON_LENGTH, reasonLength } from '@logovote/contracts/limits';
import { Button, cn, Input, Label, SpinnerIcon } from '@logovote/ui';
import { api, getFingerprint } from '@logovote/web-client';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

type ReasonBoxProps = { sessionId: string };

/**
 * 'Why this one?' (docs/reasons.md): after a vote, an optional one-line reason for it. It sits
 * below the spec's screens and changes none of their texts; the server masks profanity and answers the
 * reason as stored, which is shown back. A changed vote drops the reason, so the page gives the box a
 * new key per voted logo.
 */
export function ReasonBox({ sessionId }: ReasonBoxProps) {
  const inputId = useId();
  const [reason, setReason] = useState('');
  const send = useMutation({
    mutationFn: async (text: string) => api.submitReason(sessionId, text, await getFingerprint()),
  });
  const length = reasonLength(reason.trim());
  const tooLong = length > MAX_REASON_LENGTH;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (length === 0 || tooLong || send.isPending) return;
    send.mutate(reason);
  };

  if (send.isSuccess) {
    return (
      <p role="status" data-testid="reason-sent" className="mx-auto w-full max-w-md text-center text-sm text-muted-foreground break-words">
        Thanks for telling us why: &ldquo;{send.data.reason}&rdquo;
      </p>
    );
  }
  return (
    <form data-testid="reason-box" onSubmit={onSubmit} className="mx-auto flex w-full max-w-md flex-col gap-1.5">
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
          aria-invalid={tooLong}
          aria-describedby={`${inputId}-count`}
          className="flex-1"
        />
        <Button type="submit" variant="secondary" data-testid="reason-send" aria-disabled={length === 0 || tooLong || send.isPending}>
          {send.isPending && <SpinnerIcon />}
          Send
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
