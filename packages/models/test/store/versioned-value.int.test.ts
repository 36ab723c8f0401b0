/**
 * Versioned value on the real store (FerretDB on PostgreSQL in `npm test`): concurrent changes of one key
 * are each applied exactly once (compare-and-set on the version's seq), one version is left at rest, and
 * after a change that stopped between inserting its version and deleting the previous one, reads return
 * the newest and the next change applies once.
 */
import { randomBytes } from 'node:crypto';
import { versionedValue } from '../../src/store/versioned-value';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../../../../tests/support/integration';
import { storedModel } from '../support';

jest.setTimeout(120_000);

interface Value {
  state: string;
  writers: number[];
  count: number;
}

const value = versionedValue<Value>({
  collection: 'test_versioned_values',
  model: 'TestVersionedValue',
  fields: { state: { type: String, required: true }, writers: { type: [Number], required: true }, count: { type: Number, required: true } },
  indexed: ['state'],
});

/** The value's versions as stored, to look under the primitive. */
const versionsStored = storedModel<{ _id: string; key?: string; owner: string; seq: number; at: Date }>('test_versioned_values');

beforeAll(() => connectTestDatabase(testDatabaseUri('versioned_value')));
afterAll(() => dropTestDatabase());

const newKey = () => `k-${randomBytes(6).toString('hex')}`;
/** "Add my id and count one": a change that would show if it were lost or applied twice. */
const addWriter = (writer: number) => (current: { value: Value } | null) => ({
  state: 'open',
  writers: [...(current?.value.writers ?? []), writer],
  count: (current?.value.count ?? 0) + 1,
});
const versionsOf = async (key: string) => (await versionsStored.find({ key }, { seq: 1 }).lean()).map((v) => v.seq).sort((a, b) => a - b);
/** A version's id, as the primitive names it (zero-padded seq). */
const versionId = (key: string, seq: number) => `${key}#${String(seq).padStart(10, '0')}`;
/** What a change that stopped after its insert leaves: its version in, the previous one not deleted. */
async function stoppedChange(key: string, seq: number, next: Value) {
  const version = { _id: versionId(key, seq), key, owner: key, seq, at: new Date(), ...next };
  await versionsStored.create(version);
}

it('applies each of 200 concurrent changes over 25 keys exactly once, and leaves one version per key', async () => {
  // 8 writers per key: each lost race is another writer's win, so none of them runs out of its 8 attempts.
  const keys = Array.from({ length: 25 }, newKey);
  const changes = Array.from({ length: 200 }, (_, writer) => ({ key: keys[writer % keys.length]!, writer }));
  const results = await Promise.all(changes.map(({ key, writer }) => value.change(key, addWriter(writer))));

  for (const key of keys) {
    const writers = changes.filter((change) => change.key === key).map((change) => change.writer);
    const current = await value.read(key);
    expect(current?.seq).toBe(writers.length);
    expect(current?.value.count).toBe(writers.length);
    expect([...current!.value.writers].sort((a, b) => a - b)).toEqual(writers);
    expect(await versionsOf(key)).toEqual([writers.length]);
  }
  // Each call resolved with the version its own change made: seqs 1…8 once per key.
  for (const key of keys) {
    const seqs = results.filter((_, index) => changes[index]!.key === key).map((result) => result!.seq);
    expect(seqs.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  }
});

it('leaves a value alone when the change decides so, and reads null for a key never changed', async () => {
  const key = newKey();
  expect(await value.read(key)).toBeNull();
  expect(await value.change(key, () => undefined)).toBeNull();
  expect(await value.exists(key)).toBe(false);
  await value.change(key, addWriter(1));
  expect((await value.change(key, () => undefined))?.seq).toBe(1);
  expect(await versionsOf(key)).toEqual([1]);
});

it('after a change that stopped before deleting the previous version, reads the newest and applies the next change once', async () => {
  const key = newKey();
  await value.change(key, addWriter(1));
  await value.change(key, addWriter(2));
  // The stopped writer's version 3 is in; version 2 was not deleted.
  await stoppedChange(key, 3, { state: 'closed', writers: [1, 2, 3], count: 3 });
  expect(await versionsOf(key)).toEqual([2, 3]);

  expect(await value.read(key)).toMatchObject({ seq: 3, value: { state: 'closed', writers: [1, 2, 3], count: 3 } });
  // Version 2 is still 'open', but it is not the key's newest: the lookup by field must not return it.
  expect((await value.findWhere('state', 'open')).map((version) => version.key)).not.toContain(key);
  expect((await value.findWhere('state', 'closed')).map((version) => version.key)).toContain(key);

  // The next changes build on version 3 and are each applied once.
  for (const writer of [4, 5, 6]) await value.change(key, addWriter(writer));
  const current = await value.read(key);
  expect(current?.seq).toBe(6);
  expect(current?.value.count).toBe(6);
  expect([...current!.value.writers].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
  expect((await value.findWhere('state', 'open')).map((version) => [version.key, version.seq])).toContainEqual([key, 6]);
});

it('under 50 writers of one key, applies every change that resolved exactly once and none that gave up', async () => {
  // More writers than attempts: some may give up (the documented limit), but none is lost or half-applied.
  const key = newKey();
  const settled = await Promise.allSettled(Array.from({ length: 50 }, (_, writer) => value.change(key, addWriter(writer))));
  const applied = settled.flatMap((result, writer) => (result.status === 'fulfilled' ? [writer] : []));
  for (const result of settled)
    if (result.status === 'rejected') expect(String(result.reason)).toMatch(/kept changing during \d+ attempts/);

  const current = await value.read(key);
  expect(applied.length).toBeGreaterThan(0);
  expect(current?.seq).toBe(applied.length);
  expect(current?.value.count).toBe(applied.length);
  expect([...current!.value.writers].sort((a, b) => a - b)).toEqual(applied);
  expect(await versionsOf(key)).toEqual([applied.length]);
});

it('retires, at the next change, every version a stop left live', async () => {
  const key = newKey();
  await value.change(key, addWriter(1));
  await value.change(key, addWriter(2));
  await stoppedChange(key, 3, { state: 'closed', writers: [1, 2, 3], count: 3 });
  await value.change(key, addWriter(4));
  expect(await versionsOf(key)).toEqual([4]);
  // Retired versions keep their numbers claimed until the key is removed.
  expect(await versionsStored.countDocuments({ owner: key })).toBe(4);
  await value.remove(key);
  expect(await value.exists(key)).toBe(false);
});
