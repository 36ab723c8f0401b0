import { randomBytes } from 'node:crypto';
import { ANALYTICS_RETENTION_DAYS, AnalyticsEventName, DAY_MS, type AnalyticsEvent } from '@logovote/contracts';
import { timeBucketedLog } from './store/time-bucketed-log';

/** One product analytics event as the browser reported it (no fingerprint, no address). */
export interface StoredAnalyticsEvent {
  name: AnalyticsEventName;
  path: string;
  occurredAt: Date;
  sessionId?: string | undefined;
  logoId?: string | undefined;
  sawAllLogos?: boolean | undefined;
}

/**
 * The first-party analytics events (docs/analytics.md), never read by the product: a time-bucketed log
 * by the day they were received (the browser's own clock, `occurredAt`, is kept but trusted for nothing),
 * kept ANALYTICS_RETENTION_DAYS days, whole days swept; a deleted poll's events go with its votes.
 */
const analyticsLog = timeBucketedLog<StoredAnalyticsEvent>({
  name: 'analytics-events',
  collection: 'analytics_events',
  model: 'AnalyticsEvent',
  fields: {
    name: { type: String, enum: AnalyticsEventName.options, required: true },
    path: { type: String, required: true },
    occurredAt: { type: Date, required: true },
    sessionId: { type: String },
    logoId: { type: String },
    sawAllLogos: { type: Boolean },
  },
  indexed: ['sessionId'],
  spansMs: [DAY_MS],
});

/** Stores a batch the browser sent, received now: one round trip for the events, one for their day's marker. */
export async function recordAnalyticsEvents(events: AnalyticsEvent[], receivedAt = new Date()): Promise<void> {
  await analyticsLog.appendAll(
    events.map((event) => ({
      id: randomBytes(12).toString('base64url'),
      fields: {
        name: event.name,
        path: event.path,
        occurredAt: new Date(event.occurredAt),
        sessionId: event.session_id,
        logoId: event.logo_id,
        sawAllLogos: event.saw_all_logos,
      },
    })),
    receivedAt,
  );
}

/** Removes the events received more than ANALYTICS_RETENTION_DAYS days before `now` (whole days); resolves with how many. */
export async function sweepAnalyticsEvents(now = new Date()): Promise<number> {
  return analyticsLog.sweep(now.getTime() - ANALYTICS_RETENTION_DAYS * DAY_MS);
}

/** Removes a deleted poll's events; resolves with how many. */
export async function deleteAnalyticsEvents(pollId: string): Promise<number> {
  return analyticsLog.removeWhere('sessionId', pollId);
}

/** Whether any event of a poll is stored. */
export async function hasAnalyticsEvents(pollId: string): Promise<boolean> {
  return analyticsLog.hasRecordsWhere('sessionId', pollId);
}
