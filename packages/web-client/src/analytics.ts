import type { AnalyticsBatch, AnalyticsEvent, AnalyticsEventName } from '@logovote/contracts';

import { MAX_ANALYTICS_BATCH } from './constants';

export const ANALYTICS_ENDPOINT = '/api/analytics/events';

/**
 * What a named event may carry (spec section 3: vote events carry session_id and logo_id; vote_confirmed
 * also whether the voter had seen every logo).
 */
export type AnalyticsProps = { session_id?: string; logo_id?: string; saw_all_logos?: boolean };

export type AnalyticsTransport = {
  /** navigator.sendBeacon: survives the page going away; false when the browser refused to queue it. */
  beacon(url: string, body: string): boolean;
  /** fetch(..., { keepalive: true }), never awaited. */
  post(url: string, body: string): void;
};

export type AnalyticsOptions = {
  endpoint?: string;
  /** Flush as soon as this many events are queued. */
  maxQueued?: number;
  /** Otherwise flush this long after the first queued event. */
  flushDelayMs?: number;
  transport?: AnalyticsTransport;
  /** The current route path (no query string: it could carry personal data). */
  currentPath?: () => string;
  now?: () => Date;
};

const browserTransport: AnalyticsTransport = {
  beacon(url, body) {
    return typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, new Blob([body], { type: 'application/json' }));
  },
  post(url, body) {
    void fetch(url, {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body,
    }).catch(() => undefined);
  },
};

/**
 * Page views and the spec's named events, queued and sent in batches to the first-party collector
 * (POST /api/analytics/events). Fire and forget: nothing here throws, returns a promise, or waits for
 * the network, so a slow or broken collector never slows or breaks a page.
 */
export function createAnalytics(options: AnalyticsOptions = {}) {
  const endpoint = options.endpoint ?? ANALYTICS_ENDPOINT;
  const maxQueued = Math.min(options.maxQueued ?? 20, MAX_ANALYTICS_BATCH);
  const flushDelayMs = options.flushDelayMs ?? 2000;
  const transport = options.transport ?? browserTransport;
  const currentPath = options.currentPath ?? (() => window.location.pathname);
  const now = options.now ?? (() => new Date());

  let queue: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let listening = false;

  function flush(useBeacon = false): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    while (queue.length > 0) {
      const batch: AnalyticsBatch = { events: queue.slice(0, MAX_ANALYTICS_BATCH) };
      queue = queue.slice(MAX_ANALYTICS_BATCH);
      const body = JSON.stringify(batch);
      try {
        if (!(useBeacon && transport.beacon(endpoint, body))) transport.post(endpoint, body);
      } catch {
        // Dropped: analytics must never break the page.
      }
    }
  }

  // The page may be closed at any moment after it is hidden: flush with sendBeacon then.
  function listenForPageHide(): void {
    if (listening || typeof window === 'undefined') return;
    listening = true;
    const flushWithBeacon = () => flush(true);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') flushWithBeacon();
    });
    window.addEventListener('pagehide', flushWithBeacon);
  }

  function track(name: AnalyticsEventName, props: AnalyticsProps = {}): void {
    try {
      listenForPageHide();
      const event: AnalyticsEvent = { name, path: currentPath().slice(0, 512), occurredAt: now().toISOString() };
      if (props.session_id) event.session_id = props.session_id;
      if (props.logo_id) event.logo_id = props.logo_id;
      if (props.saw_all_logos !== undefined) event.saw_all_logos = props.saw_all_logos;
      queue.push(event);
      if (queue.length >= maxQueued) flush();
      else timer ??= setTimeout(() => flush(), flushDelayMs);
    } catch {
      // Never let analytics break the caller.
    }
  }

  return {
    track,
    /** Spec section 2: a page view on every route change. */
    pageView(): void {
      track('page_view');
    },
    flush,
    /** Events waiting to be sent (for tests and debugging). */
    pending(): readonly AnalyticsEvent[] {
      return queue;
    },
  };
}

export type Analytics = ReturnType<typeof createAnalytics>;
