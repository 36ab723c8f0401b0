import type { UploadRefusal, UploadStage } from '@logovote/contracts';
import { AlertTriangleIcon, Badge, Button, Card, CardContent, CardDescription, CardHeader, SpinnerIcon } from '@logovote/ui';
import { api } from '@logovote/web-client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';

import { formatCreatedAt } from './format';

const REFUSALS_QUERY_KEY = ['admin', 'refusals'] as const;

/** Which of the upload pipeline's checks refused the file, in words. */
const STAGE_LABELS: Record<UploadStage, string> = {
  type: 'Not an accepted type',
  svg: 'Unsafe SVG',
  decode: 'Unreadable image',
  dimensions: 'Too many pixels',
  moderation: 'Content moderation',
};

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** The checks that refused a file, each as a badge with its reason. */
function RefusingChecks({ refusal }: { refusal: UploadRefusal }) {
  const refusing = (refusal.checks ?? []).filter((verdict) => !verdict.isValid);
  return (
    <ul aria-label="Refusing checks" className="flex flex-col gap-1.5">
      {refusing.map((verdict) => (
        <li
          key={verdict.check}
          data-testid="refusing-check"
          data-check={verdict.check}
          className="grid grid-cols-[auto_minmax(0,1fr)] items-start gap-2 text-sm"
        >
          <Badge variant="destructive" className="justify-center capitalize">
            {verdict.check}
          </Badge>
          <span className="break-words">{verdict.reason}</span>
        </li>
      ))}
    </ul>
  );
}

function RefusalRow({ refusal }: { refusal: UploadRefusal }) {
  const byChecks = refusal.stage === 'moderation' && (refusal.checks ?? []).some((verdict) => !verdict.isValid);
  return (
    <li
      data-testid="refused-upload"
      data-stage={refusal.stage}
      className="flex min-w-0 flex-col gap-2 rounded-lg border border-border p-3 sm:p-4"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p className="min-w-0 font-medium break-all" data-testid="refused-file-name">
          {refusal.fileName}
        </p>
        <Badge variant="outline" data-testid="refused-stage">
          {STAGE_LABELS[refusal.stage]}
        </Badge>
      </div>
      <p className="text-xs text-muted-foreground">
        <time dateTime={refusal.at}>{formatCreatedAt(refusal.at)}</time>
        {' · '}
        {refusal.declaredType || 'no type declared'}
        {' · '}
        {formatSize(refusal.size)}
      </p>
      {/* Moderation names its refusing checks with their reasons; the other stages' message is the reason. */}
      {byChecks ? (
        <RefusingChecks refusal={refusal} />
      ) : (
        <p className="text-sm break-words" data-testid="refused-reason">
          {refusal.message}
        </p>
      )}
    </li>
  );
}

/**
 * The admin's review: the uploads poll creation refused in the last 30 days, newest first, with
 * the reason (their images are not kept). A section of the admin page of its own.
 */
export function RefusedUploads() {
  const headingId = useId();
  const refusals = useInfiniteQuery({
    queryKey: REFUSALS_QUERY_KEY,
    queryFn: ({ pageParam }) => api.listUploadRefusals(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next,
  });
  const loaded = refusals.data?.pages.flatMap((page) => page.refusals) ?? [];

  let content;
  if (refusals.isPending) {
    content = (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <SpinnerIcon className="size-4" />
        Loading refused uploads...
      </p>
    );
  } else if (refusals.isError) {
    content = (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p className="text-sm">The refused uploads could not be loaded.</p>
        <p className="font-mono text-xs break-all text-muted-foreground">{refusals.error.message}</p>
        <Button variant="outline" onClick={() => void refusals.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (loaded.length === 0) {
    content = <p className="text-sm text-muted-foreground">No uploads were refused in the last 30 days.</p>;
  } else {
    content = (
      <>
        <ul className="flex flex-col gap-3">
          {loaded.map((refusal) => (
            <RefusalRow key={refusal.refusalId} refusal={refusal} />
          ))}
        </ul>
        {refusals.hasNextPage && (
          <Button
            variant="outline"
            className="mt-3 w-full"
            data-testid="load-more-refusals"
            disabled={refusals.isFetchingNextPage}
            onClick={() => void refusals.fetchNextPage()}
          >
            {refusals.isFetchingNextPage ? 'Loading refused uploads...' : `Load more refused uploads (${loaded.length} shown)`}
          </Button>
        )}
      </>
    );
  }

  return (
    <Card role="region" aria-labelledby={headingId} data-testid="refused-uploads" className="mt-6">
      <CardHeader className="px-4 sm:px-6">
        <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold tracking-tight">
          <AlertTriangleIcon className="size-5 text-muted-foreground" />
          Refused uploads (last 30 days)
        </h2>
        <CardDescription>Files that poll creation refused, and why. Their images are not kept.</CardDescription>
      </CardHeader>
      <CardContent className="px-4 sm:px-6">{content}</CardContent>
    </Card>
  );
}
