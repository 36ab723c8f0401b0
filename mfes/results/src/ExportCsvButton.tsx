import { Button, Icon } from '@logovote/ui';
import { api } from '@logovote/web-client';

function DownloadIcon() {
  return (
    <Icon>
      <path d="M12 3v12M7 10l5 5 5-5M4 21h16" />
    </Icon>
  );
}

/** 'Export CSV' (docs/export.md): the results and the voters' reasons as a file the server names. */
export function ExportCsvButton({ sessionId }: { sessionId: string }) {
  return (
    <div className="flex justify-end">
      <Button asChild variant="outline">
        <a data-testid="export-csv" href={api.resultsCsvUrl(sessionId)} download>
          <DownloadIcon />
          Export CSV
        </a>
      </Button>
    </div>
  );
}
