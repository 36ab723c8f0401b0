import { Button, FlagIcon } from '@logovote/ui';
import { lazy, Suspense, useRef, useState } from 'react';

const loadReportDialog = () => import(/* webpackChunkName: "report-dialog" */ './ReportDialog');
const ReportDialog = lazy(loadReportDialog);

/**
 * 'Report this poll' (docs/moderation.md): a small link below the voting area opening the
 * report dialog. The dialog (and the dialog primitive it needs) is a chunk of its own, fetched when the
 * link is pointed at, focused or used, so the page's first load does not grow.
 */
export function ReportPoll({ sessionId }: { sessionId: string }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so closing is the dialog's own (focus goes back to the link).
  const [opened, setOpened] = useState(false);
  const link = useRef<HTMLButtonElement>(null);
  return (
    <div className="flex justify-center">
      <Button
        ref={link}
        variant="link"
        size="sm"
        data-testid="report-poll"
        aria-haspopup="dialog"
        className="h-11 gap-1.5 text-xs font-normal text-muted-foreground"
        onPointerEnter={() => void loadReportDialog()}
        onFocus={() => void loadReportDialog()}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        <FlagIcon className="size-3.5" />
        Report this poll
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <ReportDialog sessionId={sessionId} open={open} onOpenChange={setOpen} returnFocusTo={link} />
        </Suspense>
      )}
    </div>
  );
}
