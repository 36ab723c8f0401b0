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
 * A process remembers the newest markers it has written or found (REMEMBERED_MARKERS keys per log) and
 * does not insert them again. That is safe because a marker is removed only by a sweep, and only for a
 * bucket that ended before the sweep's `before`, while a log appends only to buckets no sweep has reached
 * (its sweeps look behind the moments it appends at): a remembered marker of a live bucket is still
 * there. A sweep forgets the markers of the buckets it passes, so a later append to one marks it again.
 *
 * Cost: an append is one insert for the record, plus one per level for the markers of a bucket this
 * process has not marked yet (refused and ignored if another process has): the first append of a bucket
 * in a process pays them, the next ones to the same bucket are one insert (`appendAll`: the same for any
 * number of records of one moment). Reading a bucket is one equality lookup, and so is reading or removing a
 * subject's records by an indexed field (`recordsWhere`, `removeWhere`); a sweep is a lookup of the log's
 * coarsest markers and two deletes per aged-out bucket.
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

/** How many marked buckets a log remembers per process (the newest ones marked: appends go to a few recent buckets). */
const REMEMBERED_MARKERS = 16;

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

  /**
   * The markers this process wrote or found, or is writing (concurrent appends to a new bucket share the
   * insert), with the end of their coarsest bucket, which a sweep past it removes.
   */
  const marked = new Map<string, { marking: Promise<unknown>; sweptAfter: number }>();
  function markOnce(marker: { _id: string; parent: string; start: number }, sweptAfter: number): Promise<unknown> {
    const known = marked.get(marker._id);
    if (known) return known.marking;
    const marking = claimOnce(LogBucketModel, marker);
    marked.set(marker._id, { marking, sweptAfter });
    // A failed insert is not remembered: the next append tries again.
    marking.catch(() => marked.get(marker._id)?.marking === marking && marked.delete(marker._id));
    if (marked.size > REMEMBERED_MARKERS) marked.delete(marked.keys().next().value!);
    return marking;
  }
  async function mark(at: number): Promise<void> {
    const keys = bucketKeys(at);
    const sweptAfter = startOf(at, spansMs[0]!) + spansMs[0]!;
    // Coarsest first: a marker is never written under a parent the sweep cannot find.
    for (const [level, key] of keys.entries()) {
      await markOnce({ _id: key, parent: level === 0 ? name : keys[level - 1]!, start: startOf(at, spansMs[level]!) }, sweptAfter);
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

  /**
   * Deletes every coarsest bucket that ended before `before`, records first, marker last, and forgets its
   * markers; resolves with the records removed.
   */
  async function sweep(before: number): Promise<number> {
    let removed = 0;
    for (const top of await buckets()) {
      if (top.start + spansMs[0]! > before) continue;
      // A one-level log's records are found by their only bucket, the indexed `bucket`.
      removed += (await RecordModel.deleteMany(spansMs.length > 1 ? { sweepBucket: top.key } : { bucket: top.key })).deletedCount;
      if (spansMs.length > 1) await removeMarkersUnder(top.key);
      await LogBucketModel.deleteOne({ _id: top.key });
    }
    // Its markers are gone (removed now or by an earlier sweep): the next append to such a bucket marks it again.
    for (const [key, { sweptAfter }] of marked) if (sweptAfter <= before) marked.delete(key);
    return removed;
  }

  async function removeMarkersUnder(parent: string): Promise<void> {
    for (const child of await buckets(parent)) await removeMarkersUnder(child.key);
    await LogBucketModel.deleteMany({ parent });
  }

  return { append, appendAll, buckets, recordsIn, recordsWhere, hasRecordsWhere, removeWhere, sweep, bucketKeys } as const;
}
