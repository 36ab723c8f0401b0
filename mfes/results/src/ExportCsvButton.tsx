import { Button, Icon } from '@logovote/ui';
import { api } from '@logovote/web-client';
import { useQuery } from '@tanstack/react-query';

function DownloadIcon() {
  return (
    <Icon>
      <path d="M12 3v12M7 10l5 5 5-5M4 21h16" />
    </Icon>
  );
}

/**
 * 'Export CSV' (docs/export.md), for the poll's creator only (docs/results-visibility.md): the results and the
 * voters' reasons as a file the server names. A plain link cannot send the creator token, so the results pass
 * (a cookie for the poll's API paths) is asked for first; the link is usable once it is there.
 */
export function ExportCsvButton({ sessionId, creatorToken }: { sessionId: string; creatorToken: string }) {
  const pass = useQuery({
    queryKey: ['results-pass', sessionId],
    queryFn: () => api.requestResultsPass(sessionId, creatorToken).then(() => true),
    retry: false,
  });
  return (
    <div className="flex justify-end">
      {pass.isPending ? (
        <Button variant="outline" disabled>
          <DownloadIcon />
          Export CSV
        </Button>
      ) : (
        <Button asChild variant="outline">
          <a data-testid="export-csv" href={api.resultsCsvUrl(sessionId)} download>
            <DownloadIcon />
            Export CSV
          </a>
        </Button>
      )}
    </div>
  );
}
