/**
 * Time-bucketed log on the real store (FerretDB on PostgreSQL in `npm test`): concurrent appends of one id
 * count once, concurrent appends to one bucket are all readable, each bucket has one marker, the sweep
 * removes whole aged buckets and nothing else (another log's markers share the collection), what an
 * append or a sweep left halfway is still swept without touching reads of live buckets, and a process
 * marks a bucket once until a sweep removes it.
 */
import { randomBytes } from 'node:crypto';
import { HOUR_MS, MINUTE_MS } from '@logovote/contracts';
import { timeBucketedLog } from '../../src/store/time-bucketed-log';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../../../../tests/support/integration';
import { storedModel } from '../support';
import { countOperations } from '../../../../tests/support/store-costs';

jest.setTimeout(120_000);

/** A fixed hour, so that every bucket a test writes is known. */
const BASE = Date.UTC(2031, 0, 1, 0, 0, 0);

// Marker names start with the log's name: a name of its own per run keeps these apart from any other log's.
const LOG_NAME = `test-log-${randomBytes(4).toString('hex')}`;
const log = timeBucketedLog<{ subject: string }>({
  name: LOG_NAME,
  collection: 'test_log_records',
  model: 'TestLogRecord',
  fields: { subject: { type: String, required: true } },
  indexed: ['subject'],
  spansMs: [HOUR_MS, MINUTE_MS],
});
const flatLog = timeBucketedLog<{ subject: string }>({
  name: `test-flat-log-${randomBytes(4).toString('hex')}`,
  collection: 'test_flat_log_records',
  model: 'TestFlatLogRecord',
  fields: { subject: { type: String, required: true } },
  spansMs: [HOUR_MS],
});

/** The markers and records as stored, to look under the primitive and to leave a sweep stopped halfway. */
const LogBucketModel = storedModel<{ _id: string; parent: string; start: number }>('log_buckets');
const recordsStored = storedModel('test_log_records');

beforeAll(() => connectTestDatabase(testDatabaseUri('time_bucketed_log')));
afterAll(() => dropTestDatabase());

const newId = () => randomBytes(6).toString('hex');
/**
 * A test's own hours, earlier than every earlier test's: a sweep before a test's last hour then reaches
 * only that test's buckets.
 */
let hoursTaken = 0;
const ownHours = (count: number) => {
  hoursTaken += count;
  const first = BASE - hoursTaken * HOUR_MS;
  return Array.from({ length: count }, (_, index) => first + index * HOUR_MS);
};
const subjectsIn = async (bucket: string) => (await log.recordsIn<{ subject: string }>(bucket)).map((record) => record.subject).sort();
/** Every marker of this log (coarsest and finest) within the given hours. */
const markersOf = async (hours: number[]) => {
  const hourKeys = hours.map((hour) => log.bucketKeys(hour)[0]!);
  return LogBucketModel.countDocuments({ $or: [{ _id: { $in: hourKeys } }, { parent: { $in: hourKeys } }] });
};

it('counts an id appended by 100 writers at once once, with one marker per level', async () => {
  const [hour] = ownHours(1);
  const at = new Date(hour! + 5 * MINUTE_MS);
  const id = newId();
  const appended = await Promise.all(Array.from({ length: 100 }, (_, writer) => log.append(id, { subject: `w${writer}` }, at)));
  expect(appended.filter(Boolean)).toHaveLength(1);
  expect(await recordsStored.countDocuments({ _id: id })).toBe(1);
  const [hourKey, minuteKey] = log.bucketKeys(at.getTime());
  expect((await log.recordsIn(minuteKey!)).map((record) => (record as { _id: string })._id)).toEqual([id]);
  expect(await log.recordsIn(minuteKey!, ['subject'])).toEqual([{ _id: id, at, bucket: minuteKey, sweepBucket: hourKey }]);
  expect((await log.buckets()).filter((bucket) => bucket.key === hourKey)).toHaveLength(1);
  expect(await log.buckets(hourKey)).toEqual([{ key: minuteKey, start: hour! + 5 * MINUTE_MS }]);
  expect(await markersOf([hour!])).toBe(2);
});

it('keeps all of 150 concurrent appends to one bucket readable', async () => {
  const [hour] = ownHours(1);
  const subjects = Array.from({ length: 150 }, (_, index) => `s${String(index).padStart(3, '0')}`);
  // Spread over one minute's milliseconds: one finest bucket.
  const appended = await Promise.all(subjects.map((subject, index) => log.append(newId(), { subject }, new Date(hour! + index * 300))));
  expect(appended.every(Boolean)).toBe(true);
  const [hourKey, minuteKey] = log.bucketKeys(hour!);
  expect(await subjectsIn(minuteKey!)).toEqual(subjects);
  expect(await log.buckets(hourKey)).toEqual([{ key: minuteKey, start: hour }]);
  expect(await markersOf([hour!])).toBe(2);
});

it('writes a batch of records in one append, each id once however often the batch is repeated, racing or not', async () => {
  const [hour] = ownHours(1);
  const at = new Date(hour! + 2 * MINUTE_MS);
  const subject = `batch-${newId()}`;
  const records = Array.from({ length: 40 }, () => ({ id: newId(), fields: { subject } }));
  await log.appendAll(records.slice(0, 10), at);
  // The whole batch again, four times at once: the first ten are there already, the rest race.
  await Promise.all(Array.from({ length: 4 }, () => log.appendAll(records, at)));
  const [hourKey, minuteKey] = log.bucketKeys(at.getTime());
  const stored = (await log.recordsWhere('subject', subject)).map((record) => record._id).sort();
  expect(stored).toEqual(records.map((record) => record.id).sort());
  expect((await log.recordsIn(minuteKey!)).length).toBe(40);
  expect(await log.buckets(hourKey)).toEqual([{ key: minuteKey, start: hour! + 2 * MINUTE_MS }]);
  await expect(log.hasRecordsWhere('subject', subject)).resolves.toBe(true);
  expect(await log.removeWhere('subject', subject)).toBe(40);
  await expect(log.hasRecordsWhere('subject', subject)).resolves.toBe(false);
});

it('marks each bucket once under 180 concurrent appends over 3 hours, lists them newest first, and sweeps only aged hours', async () => {
  const hours = ownHours(3);
  const writes = hours.flatMap((hour) =>
    Array.from({ length: 60 }, (_, index) => ({ at: hour + (index % 5) * MINUTE_MS + index * 7, subject: newId() })),
  );
  await Promise.all(writes.map(({ at, subject }) => log.append(newId(), { subject }, new Date(at))));

  const hourKeys = hours.map((hour) => log.bucketKeys(hour)[0]!);
  const listed = (await log.buckets()).filter((bucket) => hourKeys.includes(bucket.key));
  expect(listed).toEqual(hours.map((hour, index) => ({ key: hourKeys[index], start: hour })).reverse());
  for (const [index, hour] of hours.entries()) {
    const minutes = await log.buckets(hourKeys[index]);
    expect(minutes.map((minute) => minute.start)).toEqual([4, 3, 2, 1, 0].map((minute) => hour + minute * MINUTE_MS));
    for (const minute of minutes) {
      const expected = writes.filter(({ at }) => at >= minute.start && at < minute.start + MINUTE_MS).map(({ subject }) => subject);
      expect(await subjectsIn(minute.key)).toEqual(expected.sort());
    }
  }
  // One marker per hour and per minute: 3 + 15.
  expect(await markersOf(hours)).toBe(18);

  // Sweeping before the third hour removes the first two, records and markers, and leaves the third alone.
  expect(await log.sweep(hours[2]!)).toBe(120);
  expect(await markersOf(hours.slice(0, 2))).toBe(0);
  expect(await recordsStored.countDocuments({ sweepBucket: { $in: hourKeys.slice(0, 2) } })).toBe(0);
  expect(await markersOf([hours[2]!])).toBe(6);
  expect(await recordsStored.countDocuments({ sweepBucket: hourKeys[2] })).toBe(60);
  // Sweeping again finds nothing left to remove.
  expect(await log.sweep(hours[2]!)).toBe(0);
});

it('sweeps a one-level log by its only bucket, and leaves another log’s markers alone', async () => {
  const hours = ownHours(2);
  await Promise.all(
    hours.flatMap((hour) => Array.from({ length: 20 }, (_, index) => flatLog.append(newId(), { subject: 'x' }, new Date(hour + index)))),
  );
  const [first, second] = hours.map((hour) => flatLog.bucketKeys(hour)[0]!);
  expect((await flatLog.buckets()).filter((bucket) => bucket.key === first || bucket.key === second)).toHaveLength(2);
  expect(await flatLog.recordsIn(first!)).toHaveLength(20);

  const otherMarkers = await LogBucketModel.countDocuments({ _id: { $regex: `^${LOG_NAME}\\|` } });
  expect(await flatLog.sweep(hours[1]!)).toBe(20);
  expect(await flatLog.recordsIn(first!)).toHaveLength(0);
  expect(await flatLog.recordsIn(second!)).toHaveLength(20);
  expect(await LogBucketModel.exists({ _id: first })).toBeNull();
  expect(await LogBucketModel.exists({ _id: second })).not.toBeNull();
  expect(await LogBucketModel.countDocuments({ _id: { $regex: `^${LOG_NAME}\\|` } })).toBe(otherMarkers);
});

it('sweeps what appends left halfway (markers without records, records without their minute marker), reads of live buckets unaffected', async () => {
  const [aged, halfSwept, live] = ownHours(3);
  // A live hour, appended normally.
  const liveSubjects = Array.from({ length: 10 }, (_, index) => `live${index}`);
  await Promise.all(liveSubjects.map((subject, index) => log.append(newId(), { subject }, new Date(live! + index))));

  // An append stopped after its markers, before its record: markers with no record.
  const [agedHour, agedMinute] = log.bucketKeys(aged! + 3 * MINUTE_MS);
  await LogBucketModel.create({ _id: agedHour, parent: LOG_NAME, start: aged });
  await LogBucketModel.create({ _id: agedMinute, parent: agedHour, start: aged! + 3 * MINUTE_MS });
  // Records in a minute whose marker is missing while its hour's is present. Appends do not leave this
  // (markers go in first), but the sweep must not depend on the finest markers: it finds records by hour.
  const [halfHour, halfMinute] = log.bucketKeys(halfSwept! + 7 * MINUTE_MS);
  await LogBucketModel.create({ _id: halfHour, parent: LOG_NAME, start: halfSwept });
  await recordsStored.create(
    ['h1', 'h2'].map((subject, index) => ({
      _id: newId(),
      at: new Date(halfSwept! + 7 * MINUTE_MS + index),
      bucket: halfMinute,
      sweepBucket: halfHour,
      subject,
    })),
  );
  expect(await subjectsIn(halfMinute!)).toEqual(['h1', 'h2']);
  expect(await log.buckets(halfHour)).toEqual([]);

  // Everything before the live hour goes: the two records, and every marker.
  expect(await log.sweep(live!)).toBe(2);
  expect(await markersOf([aged!, halfSwept!])).toBe(0);
  expect(await subjectsIn(halfMinute!)).toEqual([]);
  // The live hour reads as before.
  const [liveHour, liveMinute] = log.bucketKeys(live!);
  expect(await subjectsIn(liveMinute!)).toEqual(liveSubjects.sort());
  expect(await log.buckets(liveHour)).toEqual([{ key: liveMinute, start: live }]);
  expect((await log.buckets()).some((bucket) => bucket.key === liveHour)).toBe(true);
});

it('marks a bucket once per process: a second append to it is one insert, and after its sweep an append marks it again', async () => {
  const [hour] = ownHours(1);
  const inserts = async (append: () => Promise<unknown>) => (await countOperations(append)).byCommand;
  const [hourKey, minuteKey] = log.bucketKeys(hour!);
  // The first append to a new hour and minute: both markers and the record.
  expect(await inserts(() => log.append(newId(), { subject: 'first' }, new Date(hour!)))).toEqual({ insert: 3 });
  expect(await inserts(() => log.append(newId(), { subject: 'second' }, new Date(hour! + 1)))).toEqual({ insert: 1 });
  // Another minute of that hour: its own marker only.
  expect(await inserts(() => log.append(newId(), { subject: 'third' }, new Date(hour! + MINUTE_MS)))).toEqual({ insert: 2 });
  expect(await inserts(() => log.appendAll([{ id: newId(), fields: { subject: 'fourth' } }], new Date(hour! + 2)))).toEqual({ insert: 1 });

  expect(await log.sweep(hour! + HOUR_MS)).toBe(4);
  expect(await markersOf([hour!])).toBe(0);
  // The sweep forgot the markers it removed: the next append to that hour marks it again, so a later sweep finds it.
  expect(await inserts(() => log.append(newId(), { subject: 'again' }, new Date(hour!)))).toEqual({ insert: 3 });
  expect(await log.buckets(hourKey)).toEqual([{ key: minuteKey, start: hour }]);
  expect(await log.sweep(hour! + HOUR_MS)).toBe(1);
  expect(await markersOf([hour!])).toBe(0);
});
