import { Button, Dialog, DialogTrigger, FlagIcon } from '@logovote/ui';
import { lazy, Suspense, useState } from 'react';

const loadReportDialog = () => import(/* webpackChunkName: "report-dialog" */ './ReportDialog');
const ReportDialog = lazy(loadReportDialog);

/**
 * 'Report this poll' (issue 18, docs/moderation.md): a small link below the voting area opening the
 * report dialog. The dialog's code is fetched when the link is pointed at, focused or used, so the
 * page's first load does not grow.
 */
export function ReportPoll({ sessionId }: { sessionId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex justify-center">
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogTrigger asChild>
          <Button
            variant="link"
            size="sm"
            data-testid="report-poll"
            className="h-8 gap-1.5 text-xs font-normal text-muted-foreground"
            onPointerEnter={() => void loadReportDialog()}
            onFocus={() => void loadReportDialog()}
          >
            <FlagIcon className="size-3.5" />
            Report this poll
          </Button>
        </DialogTrigger>
        {open && (
          <Suspense fallback={null}>
            <ReportDialog sessionId={sessionId} onSent={() => setOpen(false)} />
          </Suspense>
        )}
      </Dialog>
    </div>
  );
}
