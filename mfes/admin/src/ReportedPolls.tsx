import type { ReportedPoll } from '@logovote/contracts';
import { REPORT_CATEGORY_LABELS } from '@logovote/contracts/report-categories';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  EyeOffIcon,
  FlagIcon,
  LogoOnBackdrop,
  SpinnerIcon,
  TrashIcon,
  toast,
} from '@logovote/ui';
import { api } from '@logovote/web-client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';

import { DeletePollDialog } from './DeletePollDialog';
import { formatCreatedAt } from './format';
import { LogoImage } from './LogoImage';
import { NO_QUESTION } from './PollList';

/**
 * Under the admin list's key: refreshing the list (after a delete in its detail panel) refreshes this
 * section too, and a delete here refreshes the list.
 */
const REPORTED_POLLS_KEY = ['admin', 'polls', 'reported'] as const;

const reportsLabel = (count: number) => `${count} ${count === 1 ? 'report' : 'reports'} since the last review`;

type Props = { poll: ReportedPoll; onRestore: () => void; onDelete: () => void };

function ReportedPollItem({ poll, onRestore, onDelete }: Props) {
  return (
    <li
      data-testid="reported-poll"
      data-poll-id={poll.pollId}
      data-hidden={poll.hidden}
      className="flex flex-col gap-3 rounded-lg border border-border p-3 sm:p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-1">
          <h3 className="font-medium break-words">{poll.feedbackPrompt?.trim() || NO_QUESTION}</h3>
          <p className="font-mono text-xs break-all text-muted-foreground">{poll.pollId}</p>
        </div>
        {poll.hidden ? (
          <Badge data-testid="reported-poll-state" className="gap-1 bg-red-100 text-red-800 hover:bg-red-100">
            <EyeOffIcon className="size-3.5" />
            Hidden pending review
          </Badge>
        ) : (
          <Badge data-testid="reported-poll-state" className="bg-secondary text-secondary-foreground hover:bg-secondary">
            Visible
          </Badge>
        )}
      </div>
      <ul aria-label="Logos" className="flex flex-wrap gap-2">
        {poll.logos.map((logo) => (
          <li key={logo.id}>
            <LogoOnBackdrop
              backdrop={logo.backdrop}
              className="flex size-16 items-center justify-center overflow-hidden rounded-md border border-border p-1"
            >
              {/* Through the admin API: a hidden poll's public images are refused (docs/moderation.md). */}
              <LogoImage filename={logo.filename} alt={logo.originalName} broken={false} admin />
            </LogoOnBackdrop>
          </li>
        ))}
      </ul>
      <div className="flex flex-col gap-1.5 text-sm">
        <p data-testid="reported-poll-count" className="flex items-center gap-1.5 font-medium">
          <FlagIcon className="size-4 text-red-700" />
          {reportsLabel(poll.reports)}
        </p>
        <ul aria-label="Reasons" className="flex flex-wrap gap-1.5">
          {poll.reasons.map((reason) => (
            <li key={reason.category} data-testid="reported-poll-reason" className="rounded-full bg-muted px-2.5 py-0.5 text-xs">
              {REPORT_CATEGORY_LABELS[reason.category]} × {reason.count}
            </li>
          ))}
        </ul>
        <p className="text-xs text-muted-foreground">
          First report {formatCreatedAt(poll.firstReportAt)} · last {formatCreatedAt(poll.lastReportAt)}
        </p>
        {poll.notes.length > 0 && (
          <ul aria-label="Notes" className="flex flex-col gap-1 border-l-2 border-border pl-3 text-xs">
            {poll.notes.map((note) => (
              <li key={`${note.at}-${note.note}`} className="break-words">
                <span className="text-muted-foreground">{REPORT_CATEGORY_LABELS[note.category]}:</span> &ldquo;{note.note}&rdquo;
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" data-testid="restore-poll" onClick={onRestore}>
          Restore
        </Button>
        <Button variant="destructive" size="sm" data-testid="delete-reported-poll" onClick={onDelete}>
          <TrashIcon />
          Delete
        </Button>
      </div>
    </li>
  );
}

type RestoreDialogProps = { poll: ReportedPoll | null; restoring: boolean; onCancel: () => void; onConfirm: () => void };

/** The confirm step of 'Restore' (an alert dialog, like DeletePollDialog). */
function RestorePollDialog({ poll, restoring, onCancel, onConfirm }: RestoreDialogProps) {
  return (
    <Dialog open={poll !== null} onOpenChange={(next) => !next && !restoring && onCancel()}>
      <DialogContent
        role="alertdialog"
        data-testid="restore-poll-dialog"
        showClose={false}
        onInteractOutside={(event) => event.preventDefault()}
        onEscapeKeyDown={(event) => restoring && event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>Restore Poll</DialogTitle>
          <DialogDescription>
            The poll&apos;s {poll?.reports ?? 0} reports so far are set aside
            {poll?.hidden ? ', and it is shown and takes votes again' : ''}. New reports count from now.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel} disabled={restoring}>
            Cancel
          </Button>
          <Button onClick={onConfirm} disabled={restoring}>
            {restoring && <SpinnerIcon />}
            Restore Poll
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/**
 * 'Reported polls' (docs/moderation.md): the polls with reports since their last review,
 * hidden ones first, each restorable or deletable. Shows nothing while no poll awaits review.
 */
export function ReportedPolls() {
  const queryClient = useQueryClient();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [restoring, setRestoring] = useState<ReportedPoll | null>(null);
  const [deleting, setDeleting] = useState<ReportedPoll | null>(null);
  const reported = useQuery({ queryKey: REPORTED_POLLS_KEY, queryFn: () => api.listReportedPolls() });
  // The admin list and this section, after either action (the admin list's key is a prefix of this one).
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'polls'] });

  const restore = useMutation({
    mutationFn: (poll: ReportedPoll) => api.restoreReportedPoll(poll.pollId, poll.round),
    onSuccess: () => toast({ title: 'Poll restored', description: 'Its reports were set aside; it is shown and takes votes again.' }),
    onError: () => toast({ title: 'Error', description: 'Failed to restore the poll. Please try again.', variant: 'destructive' }),
    onSettled: () => {
      setRestoring(null);
      refresh();
    },
  });
  const deletion = useMutation({
    mutationFn: (poll: ReportedPoll) => api.deleteAdminPoll(poll.pollId),
    onSuccess: () => toast({ title: 'Poll deleted', description: 'The poll has been successfully deleted.' }),
    onError: () => toast({ title: 'Error', description: 'Failed to delete poll. Please try again.', variant: 'destructive' }),
    onSettled: () => {
      setDeleting(null);
      refresh();
    },
  });

  if (reported.isError) {
    return (
      <p role="alert" data-testid="reported-polls-error" className="mt-6 text-sm text-destructive">
        The reported polls could not be loaded: {reported.error.message}
      </p>
    );
  }
  const polls = reported.data ?? [];
  if (polls.length === 0) return null;
  const hiddenCount = polls.filter((poll) => poll.hidden).length;
  return (
    <section aria-labelledby={headingId} data-testid="reported-polls" className="mt-6">
      <Card>
        <CardHeader className="gap-1 px-4 pb-4 sm:px-6">
          <h2
            id={headingId}
            ref={heading}
            tabIndex={-1}
            className="flex items-center gap-2 text-xl font-semibold tracking-tight outline-none"
          >
            <FlagIcon className="size-5 text-red-700" />
            Reported polls
          </h2>
          <p className="text-sm text-muted-foreground">
            {polls.length} awaiting review{hiddenCount > 0 ? `, ${hiddenCount} hidden from voting` : ''}
          </p>
        </CardHeader>
        <CardContent className="px-4 sm:px-6">
          <ul className="grid gap-3 lg:grid-cols-2">
            {polls.map((poll) => (
              <ReportedPollItem key={poll.pollId} poll={poll} onRestore={() => setRestoring(poll)} onDelete={() => setDeleting(poll)} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <RestorePollDialog
        poll={restoring}
        restoring={restore.isPending}
        onCancel={() => setRestoring(null)}
        onConfirm={() => restoring && restore.mutate(restoring)}
      />
      <DeletePollDialog
        open={deleting !== null}
        deleting={deletion.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && deletion.mutate(deleting)}
        // The item and its buttons may be gone (the list is refreshed): the keyboard goes to the section's heading.
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          heading.current?.focus();
        }}
      />
    </section>
  );
}
