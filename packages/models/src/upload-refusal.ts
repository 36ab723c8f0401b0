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
 * carries its UTC hour (`hour`, indexed), and each hour that holds refusals has a marker in
 * `upload_refusal_hours` (at most 24 × 30 small documents). A page reads the markers, then the hours
 * it needs, newest first, one equality query each: what it costs depends on the refusals of those
 * hours, not on how many are stored. Kept REFUSAL_RETENTION_DAYS days: FerretDB 1.24 refuses TTL
 * indexes (`expireAfterSeconds`), so a sweep deletes whole hours past the window, the same on MongoDB;
 * reads leave out anything older meanwhile.
 */
const refusalSchema = new Schema(
  {
    /** `<13-digit milliseconds>-<8 hex>`: sorts by time. */
    _id: { type: String, required: true },
    /** The UTC hour, `2026-11-24T13`. */
    hour: { type: String, required: true },
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
export const UploadRefusalModel = model('UploadRefusal', refusalSchema);

/** "Some refusal was recorded in this hour": `_id` is the hour. */
const refusalHourSchema = new Schema({ _id: { type: String, required: true } }, { collection: 'upload_refusal_hours', versionKey: false });
export const UploadRefusalHourModel = model('UploadRefusalHour', refusalHourSchema);

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
  at: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
export const REFUSAL_RETENTION_MS = REFUSAL_RETENTION_DAYS * DAY_MS;

/** The UTC hour of a moment, as refusals are keyed: `2026-11-24T13`. */
export const refusalHour = (at: Date): string => at.toISOString().slice(0, 13);
const newRefusalId = (at: Date): string => `${String(at.getTime()).padStart(13, '0')}-${randomBytes(4).toString('hex')}`;

/** Records a refused upload; resolves with its id. */
export async function recordUploadRefusal(refusal: NewUploadRefusal, at = new Date()): Promise<string> {
  const hour = refusalHour(at);
  // The marker first: a refusal is never stored in an hour the list does not know of.
  try {
    await UploadRefusalHourModel.create({ _id: hour });
  } catch (error: unknown) {
    if (!isDuplicateKey(error)) throw error;
  }
  const _id = newRefusalId(at);
  await UploadRefusalModel.create({ ...refusal, _id, hour, at });
  return _id;
}

/**
 * Up to `limit` refusals of the retention window (newer than `now` minus REFUSAL_RETENTION_DAYS),
 * older than refusal `before` when given, newest first, and the cursor for the next ones (absent at
 * the end). One query for the hour markers, then one equality query per hour read.
 */
export async function listUploadRefusals(options: {
  before?: string;
  limit: number;
  now?: Date;
}): Promise<{ refusals: StoredUploadRefusal[]; next?: string }> {
  const since = new Date((options.now ?? new Date()).getTime() - REFUSAL_RETENTION_MS);
  const firstHour = refusalHour(since);
  const lastHour = options.before ? refusalHour(new Date(Number(options.before.slice(0, 13)))) : undefined;
  const hours = (await UploadRefusalHourModel.find({}, { _id: 1 }).lean())
    .map((marker) => marker._id)
    .filter((hour) => hour >= firstHour && (lastHour === undefined || hour <= lastHour))
    .sort()
    .reverse();
  const refusals: StoredUploadRefusal[] = [];
  for (const [index, hour] of hours.entries()) {
    const ofHour = (await UploadRefusalModel.find({ hour }).lean<StoredUploadRefusal[]>())
      .filter((refusal) => refusal.at >= since && (options.before === undefined || refusal._id < options.before))
      .sort((a, b) => (a._id < b._id ? 1 : -1));
    for (const refusal of ofHour) {
      if (refusals.length === options.limit) return { refusals, next: refusals[refusals.length - 1]!._id };
      refusals.push(refusal);
    }
    // A full page with older hours left: they may hold more.
    if (refusals.length === options.limit && index < hours.length - 1) return { refusals, next: refusals[refusals.length - 1]!._id };
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
    // The marker last: an hour whose deletion fails midway is found again by the next sweep.
    await UploadRefusalHourModel.deleteOne({ _id: hour });
  }
  return deleted;
}
