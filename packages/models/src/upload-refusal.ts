import { randomBytes } from 'node:crypto';
import { Schema } from 'mongoose';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  REFUSAL_RETENTION_DAYS,
  UPLOAD_STAGES,
  type RefusalCheck,
  type UploadStage,
} from '@logovote/contracts';
import { timeBucketedLog, type Bucket } from './store/time-bucketed-log';

/**
 * Uploads refused at poll creation (docs/moderation.md), written by the sessions service and listed to
 * the admin: when, the file's name, declared type and size, the pipeline stage and message, and for
 * moderation each check's verdict. Never the image, nor a model's raw output.
 *
 * A time-bucketed log (./store/time-bucketed-log) by hour and minute: a page reads the hours, then,
 * newest first, each hour's minutes and the minutes it needs, one equality lookup each, so what it costs
 * depends on the refusals of those minutes, not on how many are stored, even when a burst fills one
 * hour. Kept REFUSAL_RETENTION_DAYS days (whole hours are swept); reads leave out anything older meanwhile.
 */
const refusalLog = timeBucketedLog<NewUploadRefusal>({
  name: 'upload-refusals',
  collection: 'upload_refusals',
  model: 'UploadRefusal',
  fields: {
    fileName: { type: String, required: true },
    declaredType: { type: String, default: '' },
    size: { type: Number, required: true, min: 0 },
    stage: { type: String, required: true, enum: UPLOAD_STAGES },
    status: { type: Number, required: true },
    message: { type: String, required: true },
    refusedBy: { type: [String], default: undefined },
    checks: {
      type: [new Schema({ check: String, isValid: Boolean, reason: String }, { _id: false })],
      default: undefined,
    },
  },
  spansMs: [HOUR_MS, MINUTE_MS],
});

export interface NewUploadRefusal {
  fileName: string;
  declaredType: string;
  size: number;
  stage: UploadStage;
  status: number;
  message: string;
  refusedBy?: string[];
  checks?: RefusalCheck[];
}

export interface StoredUploadRefusal extends NewUploadRefusal {
  _id: string;
  at: Date;
}

export const REFUSAL_RETENTION_MS = REFUSAL_RETENTION_DAYS * DAY_MS;

const newRefusalId = (at: Date): string => `${String(at.getTime()).padStart(13, '0')}-${randomBytes(4).toString('hex')}`;

/** Records a refused upload; resolves with its id. */
export async function recordUploadRefusal(refusal: NewUploadRefusal, at = new Date()): Promise<string> {
  const id = newRefusalId(at);
  await refusalLog.append(id, refusal, at);
  return id;
}

/**
 * Up to `limit` refusals of the retention window (newer than `now` minus REFUSAL_RETENTION_DAYS),
 * older than refusal `before` when given, newest first, and the cursor for the next ones (absent at
 * the end). One lookup for the hours, then per hour read one for its minutes and one per minute read
 * (several at once).
 */
export async function listUploadRefusals(options: {
  before?: string;
  limit: number;
  now?: Date;
}): Promise<{ refusals: StoredUploadRefusal[]; next?: string }> {
  const since = (options.now ?? new Date()).getTime() - REFUSAL_RETENTION_MS;
  const beforeAt = options.before ? Number(options.before.slice(0, 13)) : undefined;
  // Buckets that can hold refusals of the window older than the cursor.
  const inWindow = (spanMs: number) => (bucket: Bucket) =>
    bucket.start + spanMs > since && (beforeAt === undefined || bucket.start <= beforeAt);
  const hours = (await refusalLog.buckets()).filter(inWindow(HOUR_MS));
  const minutes = async (hour: Bucket) => (await refusalLog.buckets(hour.key)).filter(inWindow(MINUTE_MS));
  const refusals: StoredUploadRefusal[] = [];
  const full = () => refusals.length === options.limit;
  // Each minute marked holds a refusal: a page needs at most as many minutes as it has places left. They
  // are read a few at a time, 1, 2, 4, ... at once, so a sparse page waits for few round trips and a
  // burst (a thousand in one minute) reads little more than the minute it needs.
  let batch = 1;
  for (const hour of hours) {
    const unread = await minutes(hour);
    while (unread.length > 0) {
      // A full page with a minute left to read: it may hold more.
      if (full()) return { refusals, next: refusals[refusals.length - 1]!._id };
      const reading = unread.splice(0, Math.min(batch, options.limit - refusals.length));
      batch *= 2;
      const read = await Promise.all(reading.map((minute) => refusalLog.recordsIn<StoredUploadRefusal>(minute.key)));
      const newest = read
        .flat()
        .filter((refusal) => refusal.at.getTime() >= since && (options.before === undefined || refusal._id < options.before))
        .sort((a, b) => (a._id < b._id ? 1 : -1));
      for (const refusal of newest) {
        if (full()) return { refusals, next: refusals[refusals.length - 1]!._id };
        refusals.push(refusal);
      }
    }
  }
  return { refusals };
}

/** Deletes the refusals of every hour wholly past the retention window; resolves with how many went. */
export async function sweepUploadRefusals(now = new Date()): Promise<number> {
  return refusalLog.sweep(now.getTime() - REFUSAL_RETENTION_MS);
}
