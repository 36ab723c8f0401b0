import { MAX_REASON_LENGTH, reasonLength } from '@logovote/contracts/limits';
import { Button, cn, Input, Label, SpinnerIcon } from '@logovote/ui';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';

import { useKeptInSight } from './clear-of-bar';

type OneLineFormProps = {
  /** Names the form's parts for tests: `<name>-box`, `<name>-input`, `<name>-send`, `<name>-error`, `<name>-count`. */
  name: 'reason' | 'note';
  label: ReactNode;
  placeholder: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The text the server holds (the button then says 'Save', and sending it unchanged is refused). */
  stored: string | undefined;
  pending: boolean;
  error: string | undefined;
  /** The voter chose to edit: the field takes the keyboard. */
  autoFocus: boolean;
  onSend: (text: string) => void;
};

/**
 * A voter's one line (a reason, a note: docs/reasons.md): the field, its 'Send' or 'Save' button, the
 * server's refusal and the `n/140` counter. Pasted line breaks become spaces; nothing too long, empty or
 * unchanged is sent. While the voter types, the whole form, its counter and messages included, stays clear of
 * the voting view's bottom bar and of the on-screen keyboard.
 */
export function OneLineForm({
  name,
  label,
  placeholder,
  value,
  onValueChange,
  stored,
  pending,
  error,
  autoFocus,
  onSend,
}: OneLineFormProps) {
  const inputId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [typing, setTyping] = useState(false);
  useKeptInSight(form, typing);
  const length = reasonLength(value.trim());
  const tooLong = length > MAX_REASON_LENGTH;
  const unchanged = stored !== undefined && value.trim() === stored;
  const refused = length === 0 || tooLong || unchanged || pending;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!refused) onSend(value);
  };
  return (
    <form
      ref={form}
      data-testid={`${name}-box`}
      onSubmit={onSubmit}
      onFocus={() => setTyping(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setTyping(false);
      }}
      className="mx-auto flex w-full max-w-md flex-col gap-1.5"
    >
      <Label htmlFor={inputId} className="text-sm font-medium">
        {label}
      </Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          data-testid={`${name}-input`}
          value={value}
          onChange={(event) => onValueChange(event.target.value.replace(/[\r\n]+/g, ' '))}
          placeholder={placeholder}
          autoComplete="off"
          enterKeyHint="send"
          autoFocus={autoFocus}
          aria-invalid={tooLong}
          aria-describedby={`${inputId}-count`}
          className="flex-1"
        />
        <Button type="submit" variant="secondary" data-testid={`${name}-send`} aria-disabled={refused}>
          {pending && <SpinnerIcon />}
          {stored === undefined ? 'Send' : 'Save'}
        </Button>
      </div>
      <div className="flex justify-between gap-2 text-xs">
        <span role="alert" data-testid={`${name}-error`} className="text-destructive">
          {error}
        </span>
        <span
          id={`${inputId}-count`}
          data-testid={`${name}-count`}
          className={cn('shrink-0 text-muted-foreground tabular-nums', tooLong && 'text-destructive')}
        >
          {length}/{MAX_REASON_LENGTH}
        </span>
      </div>
    </form>
  );
}
