import type { Logo, MyNotes } from '@logovote/contracts';
import { Button, SpinnerIcon } from '@logovote/ui';
import { api, getFingerprint } from '@logovote/web-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { OneLineForm } from './OneLineForm';

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
    <OneLineForm
      name="note"
      label={
        <>
          <span className="break-words">What would you change about {logo.name}?</span>{' '}
          <span className="font-normal text-muted-foreground">(optional)</span>
        </>
      }
      placeholder="One line, e.g. hard to read on light colours"
      value={note}
      onValueChange={setNote}
      stored={stored}
      pending={send.isPending}
      error={send.error?.message}
      autoFocus={editing}
      onSend={(text) => send.mutate(text)}
    />
  );
}
