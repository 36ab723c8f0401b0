import { z } from 'zod';
import { plainText } from './text';

/** Spec section 3's analytics events, plus the page view reported on every route change. */
export const AnalyticsEventName = z.enum([
  'page_view',
  'landing_page_viewed',
  'survey_created',
  'results_viewed',
  'survey_page_viewed',
  'vote_submitted',
  'vote_confirmed',
]);
export type AnalyticsEventName = z.infer<typeof AnalyticsEventName>;

export const AnalyticsEvent = z.object({
  name: AnalyticsEventName,
  /** Route path where it happened (no query string: it could carry personal data). */
  path: plainText('The path').max(512),
  occurredAt: z.iso.datetime(),
  session_id: plainText('The session id').max(64).optional(),
  logo_id: plainText('The logo id').max(64).optional(),
  /** On vote_confirmed: whether the voter had seen every logo of the poll before this vote (docs/analytics.md). */
  saw_all_logos: z.boolean({ error: 'saw_all_logos must be true or false' }).optional(),
});
export type AnalyticsEvent = z.infer<typeof AnalyticsEvent>;

export const MAX_ANALYTICS_BATCH = 50;

/** Days an analytics event is kept (docs/analytics.md): as long as a poll is by default; a deleted poll's go with it. */
export const ANALYTICS_RETENTION_DAYS = 30;

/** POST /api/analytics/events: a batch flushed by the browser (fetch keepalive or sendBeacon); 202. */
export const AnalyticsBatch = z.object({ events: z.array(AnalyticsEvent).min(1).max(MAX_ANALYTICS_BATCH) });
export type AnalyticsBatch = z.infer<typeof AnalyticsBatch>;
