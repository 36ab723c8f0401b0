import { Schema, type SchemaDefinition } from 'mongoose';
import { claimAll, claimOnce } from './claim-once';
import { primitiveCollection } from './collections';

/**
 * Time-bucketed log: records that are appended, read by time bucket and dropped whole buckets at a time
 * when they age out. FerretDB 1.24 refuses TTL indexes and sends only equality filters to PostgreSQL
 * (a range like `at < t` reads every row), so each record carries the key of its time bucket, and every
 * bucket holding records has a marker (in `log_buckets`, shared by all logs): reading newest first and
 * sweeping are equality lookups on bucket keys, whatever is stored.
 *
 * `spansMs` gives the bucket sizes, coarsest first: [hour] for one level, [hour, minute] to page through
 * a busy hour a minute at a time. A marker names its parent bucket, so the buckets of one hour are one
 * lookup. Records are swept by their coarsest bucket.
 *
 * Cost: an append is one insert per level for the markers (refused and ignored once a bucket has one)
 * and one for the record (`appendAll`: the same for any number of records of one moment); meant for rare writes (refusals, failed sign-ins, rate tickets), not votes; reading a bucket is one equality
 * lookup, and so is reading or removing a subject's records by an indexed field (`recordsWhere`,
 * `removeWhere`); a sweep is a lookup of the log's coarsest markers and two deletes per aged-out bucket.
 * Stopped halfway: markers go in coarsest first and before the record, so no record or marker is under a
 * bucket the sweep cannot find; the sweep removes a bucket's marker last.
 */

const markerSchema = new Schema(
  {
    /** `<log>|<span>|<bucket start>` */
    _id: { type: String, required: true },
    /** The log for a coarsest bucket, else the enclosing bucket's key. */
    parent: { type: String, required: true },
    start: { type: Number, required: true },
  },
  { collection: 'log_buckets', versionKey: false },
);
markerSchema.index({ parent: 1 });
const LogBucketModel = primitiveCollection('timeBucketedLog', 'LogBucket', markerSchema);

export interface Bucket {
  key: string;
  start: number;
}

const startOf = (at: number, spanMs: number) => Math.floor(at / spanMs) * spanMs;

export function timeBucketedLog<Fields extends object>(options: {
  /** The log's name among the markers. */
  name: string;
  collection: string;
  model: string;
  fields: SchemaDefinition;
  indexed?: (keyof Fields & string)[];
  spansMs: number[];
}) {
  const { name, spansMs } = options;
  if (spansMs.length === 0) throw new Error('a time-bucketed log needs at least one bucket span');
  const schema = new Schema(
    {
      _id: { type: String, required: true },
      at: { type: Date, required: true },
      /** The finest bucket's key (reads) and the coarsest's (sweeps). */
      bucket: { type: String, required: true },
      sweepBucket: { type: String, required: true },
      ...options.fields,
    },
    { collection: options.collection, versionKey: false },
  );
  schema.index({ bucket: 1 });
  if (spansMs.length > 1) schema.index({ sweepBucket: 1 });
  for (const field of options.indexed ?? []) schema.index({ [field]: 1 });
  const RecordModel = primitiveCollection('timeBucketedLog', options.model, schema);

  const keyOf = (level: number, start: number) => `${name}|${spansMs[level]}|${start}`;
  const bucketKeys = (at: number) => spansMs.map((span, level) => keyOf(level, startOf(at, span)));
  async function mark(at: number): Promise<void> {
    const keys = bucketKeys(at);
    // Coarsest first: a marker is never written under a parent the sweep cannot find.
    for (const [level, key] of keys.entries()) {
      await claimOnce(LogBucketModel, { _id: key, parent: level === 0 ? name : keys[level - 1]!, start: startOf(at, spansMs[level]!) });
    }
  }

  /** Appends a record under its unique `_id`: false when a record with that `_id` exists (it counts once). */
  async function append(id: string, fields: Fields, at: Date = new Date()): Promise<boolean> {
    await mark(at.getTime());
    const keys = bucketKeys(at.getTime());
    return claimOnce(RecordModel, { _id: id, at, bucket: keys.at(-1)!, sweepBucket: keys[0]!, ...fields });
  }

  /**
   * Appends many records at one moment in one round trip (their buckets marked once): each record whose
   * `_id` is new is written, those already there are left as they are. Repeatable.
   */
  async function appendAll(records: { id: string; fields: Fields }[], at: Date = new Date()): Promise<void> {
    await mark(at.getTime());
    const keys = bucketKeys(at.getTime());
    await claimAll(
      RecordModel,
      records.map(({ id, fields }) => ({ _id: id, at, bucket: keys.at(-1)!, sweepBucket: keys[0]!, ...fields })),
    );
  }

  /** The buckets under `parent` (the log: its coarsest buckets), newest first. */
  async function buckets(parent: string = name): Promise<Bucket[]> {
    const markers = await LogBucketModel.find({ parent }, { start: 1 }).lean();
    return markers.map((marker) => ({ key: marker._id, start: marker.start })).sort((a, b) => b.start - a.start);
  }

  /** The records of a finest bucket (one equality lookup), without the fields `leaveOut` names (large ones a list does not show). */
  const recordsIn = <Stored>(bucket: string, leaveOut: readonly string[] = []) =>
    RecordModel.find({ bucket }, Object.fromEntries(leaveOut.map((field) => [field, 0]))).lean<Stored[]>();

  type Indexed = keyof Fields & string;

  /** The records whose indexed `field` equals `value`, whatever their bucket (one equality lookup). */
  const recordsWhere = <Field extends Indexed>(field: Field, value: Fields[Field]) =>
    RecordModel.find({ [field]: value }).lean<(Fields & { _id: string; at: Date })[]>();

  /** Whether any record's indexed `field` equals `value` (one equality lookup). */
  const hasRecordsWhere = async <Field extends Indexed>(field: Field, value: Fields[Field]) =>
    (await RecordModel.exists({ [field]: value })) !== null;

  /** Removes the records whose indexed `field` equals `value` before their bucket ages out (their subject is deleted). */
  async function removeWhere<Field extends Indexed>(field: Field, value: Fields[Field]): Promise<number> {
    return (await RecordModel.deleteMany({ [field]: value })).deletedCount;
  }

  /** Deletes every coarsest bucket that ended before `before`, records first, marker last; resolves with the records removed. */
  async function sweep(before: number): Promise<number> {
    let removed = 0;
    for (const top of await buckets()) {
      if (top.start + spansMs[0]! > before) continue;
      removed += (await RecordModel.deleteMany({ sweepBucket: top.key })).deletedCount;
      if (spansMs.length > 1) await removeMarkersUnder(top.key);
      await LogBucketModel.deleteOne({ _id: top.key });
    }
    return removed;
  }

  async function removeMarkersUnder(parent: string): Promise<void> {
    for (const child of await buckets(parent)) await removeMarkersUnder(child.key);
    await LogBucketModel.deleteMany({ parent });
  }

  return { append, appendAll, buckets, recordsIn, recordsWhere, hasRecordsWhere, removeWhere, sweep, bucketKeys } as const;
}
