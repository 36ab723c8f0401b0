import type { LiveCounts, SessionView } from '@logovote/contracts';
import { LIVE_ENDED_EVENT, LIVE_REASONS_EVENT } from '@logovote/web-client';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

import { reasonsQueryKey } from './ReasonList';

/** How many times a stream that failed is opened again (a while apart) before the page stays as it is. */
const MAX_FAILURES = 3;
const RETRY_AFTER_MS = 3_000;

/** An event's data if it is counts of this poll (the server sends nothing else; anything odd is ignored). */
function countsOf(data: unknown, sessionId: string): LiveCounts | undefined {
  try {
    const counts = JSON.parse(String(data)) as Partial<LiveCounts> | null;
    if (counts?.sessionId !== sessionId || !Array.isArray(counts.logos) || typeof counts.totalVotes !== 'number') return undefined;
    return counts as LiveCounts;
  } catch {
    return undefined;
  }
}

/** Whether `counts` say something else than the view shown (a changed vote also drops the voter's old reason). */
const countsChanged = (view: SessionView | undefined, counts: LiveCounts) =>
  view !== undefined &&
  (view.totalVotes !== counts.totalVotes ||
    counts.logos.some((logo) => view.logos.find((shown) => shown.id === logo.id)?.voteCount !== logo.voteCount));

/** Runs `task` once the browser is idle (after the page's first render and its own work), or soon where it cannot tell. */
function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: 2_000 });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 200);
  return () => clearTimeout(timer);
}

/**
 * Live results (docs/live-results.md): while `showing` a poll, the page follows GET
 * /api/sessions/{id}/live and writes each update's counts into the session view it shows
 * (the query `queryKey`), so it re-renders with them; when the counts change or voters give reasons, the
 * reasons under the cards are read again. The counts only ever come from the server. A
 * stream that cannot be opened or breaks is closed and tried again at most a few times; the page then
 * simply keeps its plain results, without a message. A stream that ends because the poll was hidden or
 * deleted (its 'ended' event) is not opened again: the poll is read again instead.
 */
export function useLiveCounts(sessionId: string, queryKey: QueryKey, showing: boolean): void {
  const queryClient = useQueryClient();
  const key = useRef(queryKey);
  key.current = queryKey;

  useEffect(() => {
    if (!showing || typeof EventSource !== 'function') return;
    let source: EventSource | undefined;
    let failures = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      source = new EventSource(`/api/sessions/${encodeURIComponent(sessionId)}/live`);
      source.onmessage = (event) => {
        const counts = countsOf(event.data, sessionId);
        if (!counts) return;
        failures = 0;
        const changed = countsChanged(queryClient.getQueryData<SessionView>(key.current), counts);
        queryClient.setQueryData<SessionView>(key.current, (view) =>
          view ? { ...view, logos: counts.logos, totalVotes: counts.totalVotes } : view,
        );
        // The reasons under the cards follow the counts (docs/reasons.md).
        if (changed) void queryClient.invalidateQueries({ queryKey: reasonsQueryKey(sessionId) });
      };
      source.addEventListener(LIVE_REASONS_EVENT, () => void queryClient.invalidateQueries({ queryKey: reasonsQueryKey(sessionId) }));
      // The poll was hidden pending review or deleted: the stream is over, and the poll read again says which
      // (the page then shows the notice, or 'not found').
      source.addEventListener(LIVE_ENDED_EVENT, () => {
        source?.close();
        void queryClient.resetQueries({ queryKey: key.current, exact: true });
      });
      // EventSource would reconnect by itself, forever: close it and decide here.
      source.onerror = () => {
        source?.close();
        failures += 1;
        if (failures < MAX_FAILURES) retry = setTimeout(open, RETRY_AFTER_MS * failures);
      };
    };
    const cancelOpen = whenIdle(open);
    return () => {
      cancelOpen();
      clearTimeout(retry);
      source?.close();
    };
  }, [queryClient, sessionId, showing]);
}
