import { Schema, model } from 'mongoose';
import { AnalyticsEventName } from '@logovote/contracts';

/** One product analytics event as the browser reported it (no fingerprint, no address). */
const analyticsEventSchema = new Schema(
  {
    name: { type: String, enum: AnalyticsEventName.options, required: true },
    path: { type: String, required: true },
    occurredAt: { type: Date, required: true },
    receivedAt: { type: Date, required: true },
    sessionId: { type: String },
    logoId: { type: String },
    sawAllLogos: { type: Boolean },
  },
  { collection: 'analytics_events', versionKey: false },
);
analyticsEventSchema.index({ name: 1, occurredAt: 1 });
analyticsEventSchema.index({ sessionId: 1 });

export const AnalyticsEventModel = model('AnalyticsEvent', analyticsEventSchema);
