import { randomBytes } from 'node:crypto';
import { Schema, model } from 'mongoose';
import { REFUSAL_RETENTION_DAYS, UPLOAD_STAGES, type RefusalCheck, type UploadStage } from '@logovote/contracts';
import { isDuplicateKey } from './tally-ledger';

/**
 * Uploads refused at poll creation (issue 18, docs/moderation.md), written by the sessions service and
 * listed to the admin: when, the file's name, declared type and size, the pipeline stage and message,
 * and for moderation each check's verdict. Never the image, nor a model's raw output.
 *
 * Insert-only, and read with equality lookups alone (all FerretDB sends to PostgreSQL): each refusal
 * carries its UTC hour and minute (both indexed); each hour that holds refusals has a marker in
 * `upload_refusal_hours` (at most 24 × 30 small documents), and each such minute one in
 * `upload_refusal_minutes`, keyed by its hour. A page reads the hour markers, then, newest first, each
 * hour's minute markers and the minutes it needs, one equality query each: what it costs depends on
 * the refusals of those minutes, not on how many are stored, even when a burst fills one hour. Kept
 * REFUSAL_RETENTION_DAYS days: FerretDB 1.24 refuses TTL indexes (`expireAfterSeconds`), so a sweep
 * deletes whole hours past the window, the same on MongoDB; reads leave out anything older meanwhile.
 */
const refusalSchema = new Schema(
  {
    /** `<13-digit milliseconds>-<8 hex>`: sorts by time. */
    _id: { type: String, required: true },
    /** The UTC hour, `2026-11-24T13`, and minute, `2026-11-24T13:05`. */
    hour: { type: String, required: true },
    minute: { type: String, required: true },
    at: { type: Date, required: true },
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
  { collection: 'upload_refusals', versionKey: false },
);
refusalSchema.index({ hour: 1 });
refusalSchema.index({ minute: 1 });
export const UploadRefusalModel = model('UploadRefusal', refusalSchema);

/** "Some refusal was recorded in this hour": `_id` is the hour. */
const refusalHourSchema = new Schema({ _id: { type: String, required: true } }, { collection: 'upload_refusal_hours', versionKey: false });
export const UploadRefusalHourModel = model('UploadRefusalHour', refusalHourSchema);

/** "Some refusal was recorded in this minute": `_id` is the minute, `hour` its hour. */
const refusalMinuteSchema = new Schema(
  { _id: { type: String, required: true }, hour: { type: String, required: true } },
  { collection: 'upload_refusal_minutes', versionKey: false },
);
refusalMinuteSchema.index({ hour: 1 });
export const UploadRefusalMinuteModel = model('UploadRefusalMinute', refusalMinuteSchema);

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
  hour: string;
  minute: string;
  at: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const REFUSAL_RETENTION_MS = REFUSAL_RETENTION_DAYS * DAY_MS;

/** The UTC hour of a moment, as refusals are keyed: `2026-11-24T13`. */
export const refusalHour = (at: Date): string => at.toISOString().slice(0, 13);
const refusalMinute = (at: Date): string => at.toISOString().slice(0, 16);
const newRefusalId = (at: Date): string => `${String(at.getTime()).padStart(13, '0')}-${randomBytes(4).toString('hex')}`;

/** Inserts a marker unless it exists already. */
async function mark(insert: () => Promise<unknown>): Promise<void> {
  try {
    await insert();
  } catch (error: unknown) {
    if (!isDuplicateKey(error)) throw error;
  }
}

/** Records a refused upload; resolves with its id. */
export async function recordUploadRefusal(refusal: NewUploadRefusal, at = new Date()): Promise<string> {
  const hour = refusalHour(at);
  const minute = refusalMinute(at);
  // The markers first: a refusal is never stored in an hour or minute the list does not know of.
  await Promise.all([
    mark(() => UploadRefusalHourModel.create({ _id: hour })),
    mark(() => UploadRefusalMinuteModel.create({ _id: minute, hour })),
  ]);
  const _id = newRefusalId(at);
  await UploadRefusalModel.create({ ...refusal, _id, hour, minute, at });
  return _id;
}

const newestFirst = (a: string, b: string) => (a < b ? 1 : -1);

/**
 * Up to `limit` refusals of the retention window (newer than `now` minus REFUSAL_RETENTION_DAYS),
 * older than refusal `before` when given, newest first, and the cursor for the next ones (absent at
 * the end). One query for the hour markers, then per hour read one for its minute markers and one per
 * minute read (several at once).
 */
export async function listUploadRefusals(options: {
  before?: string;
  limit: number;
  now?: Date;
}): Promise<{ refusals: StoredUploadRefusal[]; next?: string }> {
  const since = new Date((options.now ?? new Date()).getTime() - REFUSAL_RETENTION_MS);
  const beforeAt = options.before ? new Date(Number(options.before.slice(0, 13))) : undefined;
  const inWindow = (key: string, first: string, last: string | undefined) => key >= first && (last === undefined || key <= last);
  const hours = (await UploadRefusalHourModel.find({}, { _id: 1 }).lean())
    .map((marker) => marker._id)
    .filter((hour) => inWindow(hour, refusalHour(since), beforeAt && refusalHour(beforeAt)))
    .sort(newestFirst);
  const minutes = async (hour: string) =>
    (await UploadRefusalMinuteModel.find({ hour }, { _id: 1 }).lean())
      .map((marker) => marker._id)
      .filter((minute) => inWindow(minute, refusalMinute(since), beforeAt && refusalMinute(beforeAt)))
      .sort(newestFirst);
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
      const read = await Promise.all(reading.map((minute) => UploadRefusalModel.find({ minute }).lean<StoredUploadRefusal[]>()));
      const newest = read
        .flat()
        .filter((refusal) => refusal.at >= since && (options.before === undefined || refusal._id < options.before))
        .sort((a, b) => newestFirst(a._id, b._id));
      for (const refusal of newest) {
        if (full()) return { refusals, next: refusals[refusals.length - 1]!._id };
        refusals.push(refusal);
      }
    }
  }
  return { refusals };
}

/**
 * Deletes the refusals of every hour wholly past the retention window, and those hours' markers
 * (equality deletes); resolves with how many refusals went.
 */
export async function sweepUploadRefusals(now = new Date()): Promise<number> {
  const firstKept = refusalHour(new Date(now.getTime() - REFUSAL_RETENTION_MS));
  const expired = (await UploadRefusalHourModel.find({}, { _id: 1 }).lean()).map((marker) => marker._id).filter((hour) => hour < firstKept);
  let deleted = 0;
  for (const hour of expired) {
    deleted += (await UploadRefusalModel.deleteMany({ hour })).deletedCount;
    await UploadRefusalMinuteModel.deleteMany({ hour });
    // The hour's marker last: an hour whose deletion fails midway is found again by the next sweep.
    await UploadRefusalHourModel.deleteOne({ _id: hour });
  }
  return deleted;
}
