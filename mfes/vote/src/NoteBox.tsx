import type { Logo, MyNotes } from '@logovote/contracts';
import { MAX_REASON_LENGTH, reasonLength } from '@logovote/contracts/limits';
import { Button, cn, Input, Label, SpinnerIcon } from '@logovote/ui';
import { api, getFingerprint } from '@logovote/web-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

/** The visitor's notes in a poll (GET my-notes), shared by the boxes of all its logos. */
const myNotesKey = (sessionId: string) => ['vote', 'my-notes', sessionId];

type NoteBoxProps = { sessionId: string; logo: Pick<Logo, 'id' | 'name'> };

/**
 * 'What would you change?' (docs/reasons.md, "Notes"): once the visitor has a vote, an optional one-line
 * note on the logo on screen, whichever it voted for, so a voter can say what is wrong with a logo as well
 * as why it picked one. One note per logo: sending again replaces it, 'Remove' takes it back. The server
 * masks profanity and answers the note as stored, which is shown back.
 */
export function NoteBox({ sessionId, logo }: NoteBoxProps) {
  const inputId = useId();
  const queryClient = useQueryClient();
  const myNotes = useQuery({
    queryKey: myNotesKey(sessionId),
    queryFn: async () => api.getMyNotes(sessionId, await getFingerprint()),
    retry: false,
    refetchOnWindowFocus: false,
  });
  const stored = myNotes.data?.notes.find((note) => note.logoId === logo.id)?.note;
  const [note, setNote] = useState('');
  const [editing, setEditing] = useState(false);
  const keep = (text: string | undefined) =>
    queryClient.setQueryData<MyNotes>(myNotesKey(sessionId), (mine) => ({
      notes: [
        ...(mine?.notes ?? []).filter((item) => item.logoId !== logo.id),
        ...(text === undefined ? [] : [{ logoId: logo.id, note: text }]),
      ],
    }));
  const send = useMutation({
    mutationFn: async (text: string) => api.submitNote(sessionId, logo.id, text, await getFingerprint()),
    onSuccess: (answer) => {
      keep(answer.note);
      setEditing(false);
    },
  });
  const remove = useMutation({
    mutationFn: async () => api.removeNote(sessionId, logo.id, await getFingerprint()),
    onSuccess: () => {
      keep(undefined);
      setNote('');
      setEditing(false);
    },
  });
  const length = reasonLength(note.trim());
  const tooLong = length > MAX_REASON_LENGTH;
  const unchanged = stored !== undefined && note.trim() === stored;
  const refused = length === 0 || tooLong || unchanged || send.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!refused) send.mutate(note);
  };

  // The voter's note is known before the field shows, so a given note is never offered as a blank field.
  if (myNotes.isPending) return null;
  if (!editing && stored !== undefined) {
    return (
      <div data-testid="note-given" className="mx-auto flex w-full max-w-md flex-col items-center text-center">
        <p role="status" data-testid="note-sent" className="text-sm break-words text-muted-foreground">
          Your note on {logo.name}: &ldquo;{stored}&rdquo;
        </p>
        <div className="flex gap-1">
          <Button
            variant="link"
            data-testid="note-edit"
            aria-label={`Edit your note on ${logo.name}`}
            onClick={() => {
              setNote(stored);
              setEditing(true);
            }}
            className="h-11 px-2 text-sm"
          >
            Edit
          </Button>
          <Button
            variant="link"
            data-testid="note-remove"
            aria-label={`Remove your note on ${logo.name}`}
            aria-disabled={remove.isPending}
            onClick={() => {
              if (!remove.isPending) remove.mutate();
            }}
            className="h-11 px-2 text-sm"
          >
            {remove.isPending && <SpinnerIcon />}
            Remove
          </Button>
        </div>
        {remove.error && (
          <span role="alert" className="text-xs text-destructive">
            {remove.error.message}
          </span>
        )}
      </div>
    );
  }
  return (
    <form data-testid="note-box" onSubmit={onSubmit} className="mx-auto flex w-full max-w-md flex-col gap-1.5">
      <Label htmlFor={inputId} className="text-sm font-medium">
        <span className="break-words">What would you change about {logo.name}?</span>{' '}
        <span className="font-normal text-muted-foreground">(optional)</span>
      </Label>
      <div className="flex gap-2">
        <Input
          id={inputId}
          data-testid="note-input"
          value={note}
          onChange={(event) => setNote(event.target.value.replace(/[\r\n]+/g, ' '))}
          placeholder="One line, e.g. hard to read on light colours"
          autoComplete="off"
          enterKeyHint="send"
          autoFocus={editing}
          aria-invalid={tooLong}
          aria-describedby={`${inputId}-count`}
          className="flex-1"
        />
        <Button type="submit" variant="secondary" data-testid="note-send" aria-disabled={refused}>
          {send.isPending && <SpinnerIcon />}
          {stored === undefined ? 'Send' : 'Save'}
        </Button>
      </div>
      <div className="flex justify-between gap-2 text-xs">
        <span role="alert" data-testid="note-error" className="text-destructive">
          {send.error?.message}
        </span>
        <span
          id={`${inputId}-count`}
          data-testid="note-count"
          className={cn('shrink-0 text-muted-foreground tabular-nums', tooLong && 'text-destructive')}
        >
          {length}/{MAX_REASON_LENGTH}
        </span>
      </div>
    </form>
  );
}
