import {
  MAX_REPORT_NOTE_LENGTH,
  REPORT_CATEGORIES,
  REPORT_CATEGORY_LABELS,
  type ReportCategory,
} from '@logovote/contracts/report-categories';
import {
  Button,
  cn,
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  Input,
  Label,
  SpinnerIcon,
  toast,
} from '@logovote/ui';
import { api } from '@logovote/web-client';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type RefObject } from 'react';

type ReportDialogProps = {
  sessionId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The link that opened the dialog: the keyboard goes back to it on close (the dialog has no Radix trigger). */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
};

const noteLength = (text: string) => [...text].length;

/**
 * The report dialog (docs/moderation.md): what is wrong with the poll, as the Terms of Use's
 * moderation list words it, and an optional one-line note. A repeat from the same network address is
 * answered as the first report was (it counts once).
 */
export default function ReportDialog({ sessionId, open, onOpenChange, returnFocusTo }: ReportDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-testid="report-dialog"
        className="max-w-lg gap-3 p-5 sm:p-6"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        {/* The form unmounts with the closed dialog: each opening starts afresh. */}
        <ReportForm sessionId={sessionId} onSent={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ReportForm({ sessionId, onSent }: { sessionId: string; onSent: () => void }) {
  const noteId = useId();
  const [category, setCategory] = useState<ReportCategory | null>(null);
  const [note, setNote] = useState('');
  const [missingCategory, setMissingCategory] = useState(false);
  const send = useMutation({
    mutationFn: (report: { category: ReportCategory; note?: string }) => api.reportPoll(sessionId, report),
    onSuccess: () => {
      toast({ title: 'Report sent', description: 'Thank you. A moderator will look at this poll.' });
      onSent();
    },
  });
  const trimmed = note.trim();
  const tooLong = noteLength(trimmed) > MAX_REPORT_NOTE_LENGTH;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (send.isPending || tooLong) return;
    if (!category) {
      setMissingCategory(true);
      return;
    }
    send.mutate({ category, ...(trimmed ? { note: trimmed } : {}) });
  };

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Report this poll</DialogTitle>
        <DialogDescription>
          What breaks the Terms of Use? Reports are anonymous. A poll reported by several people is hidden until a moderator has looked at
          it.
        </DialogDescription>
      </DialogHeader>
      <fieldset className="flex flex-col gap-2" aria-describedby={missingCategory ? `${noteId}-category` : undefined}>
        <legend className="mb-2 text-sm font-medium">Reason</legend>
        <div className="grid grid-cols-1 gap-1.5 sm:grid-cols-2">
          {REPORT_CATEGORIES.map((value) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-center gap-2 rounded-md border border-border px-3 py-2 text-sm',
                'has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
              )}
            >
              <input
                type="radio"
                name="report-category"
                value={value}
                checked={category === value}
                onChange={() => {
                  setCategory(value);
                  setMissingCategory(false);
                }}
                className="size-4 accent-primary"
              />
              {REPORT_CATEGORY_LABELS[value]}
            </label>
          ))}
        </div>
        {missingCategory && (
          <p id={`${noteId}-category`} role="alert" className="text-xs text-destructive">
            Please choose a reason.
          </p>
        )}
      </fieldset>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={noteId} className="text-sm font-medium">
          Details <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Input
          id={noteId}
          data-testid="report-note"
          value={note}
          onChange={(event) => setNote(event.target.value.replace(/[\r\n]+/g, ' '))}
          placeholder="One line for the moderator"
          autoComplete="off"
          aria-invalid={tooLong}
          aria-describedby={`${noteId}-count`}
        />
        <div className="flex justify-between gap-2 text-xs">
          <span role="alert" data-testid="report-error" className="text-destructive">
            {send.error?.message}
          </span>
          <span id={`${noteId}-count`} className={cn('shrink-0 text-muted-foreground tabular-nums', tooLong && 'text-destructive')}>
            {noteLength(trimmed)}/{MAX_REPORT_NOTE_LENGTH}
          </span>
        </div>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={send.isPending}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="destructive" data-testid="report-send" aria-disabled={send.isPending || tooLong}>
          {send.isPending && <SpinnerIcon />}
          Send report
        </Button>
      </DialogFooter>
    </form>
  );
}
