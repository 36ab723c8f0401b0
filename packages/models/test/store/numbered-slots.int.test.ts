/**
 * Numbered slots on the real store (FerretDB on PostgreSQL in `npm test`): concurrent claims of one log
 * take the numbers 0..n-1, each once, and readers find every slot once; claims of one name make one slot;
 * concurrent replaces and drops of a slot leave exactly one answer, the newest version's, with every older
 * version out of reads and without its value; a drop stopped halfway is skipped by readers and finished by
 * the next write; and a read passes over a long run of dropped slots in a few lookups.
 */
import { randomBytes } from 'node:crypto';
import { numberedSlots } from '../../src/store/numbered-slots';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../../../../tests/support/integration';
import { countOperations } from '../../../../tests/support/store-costs';
import { storedModel } from '../support';

jest.setTimeout(180_000);

const PAGE = 5;
const GROUP = 50;
const slots = numberedSlots<{ owner: string }, { text: string }>({
  collection: 'test_numbered_slots',
  model: 'TestNumberedSlot',
  fields: { owner: { type: String, required: true } },
  value: { text: { type: String } },
  indexed: ['owner'],
  groups: [PAGE, GROUP],
});

/** The slots' versions as stored, to look under the primitive. */
const versionsStored = storedModel<{
  _id: string;
  claim: string;
  name: string;
  seq: number;
  version: number;
  dropped?: boolean;
  text?: string;
  g0?: string;
}>('test_numbered_slots');

beforeAll(() => connectTestDatabase(testDatabaseUri('numbered_slots')));
afterAll(() => dropTestDatabase());

const newLog = () => `log-${randomBytes(6).toString('hex')}`;

/** Every slot of a log as readers page through it, newest first. */
async function pageThrough(log: string): Promise<{ seq: number; name: string; text: string }[]> {
  const shown: { seq: number; name: string; text: string }[] = [];
  let before: number | undefined;
  for (let reads = 0; reads < 1_000; reads++) {
    const { slots: page, next } = await slots.read(log, before);
    shown.push(...page.map(({ seq, name, text }) => ({ seq, name, text })));
    if (next === null) return shown;
    before = next;
  }
  throw new Error('the pages never ended');
}

it('numbers 40 concurrent claims of one log 0..39 without a gap, each once, and readers find each once', async () => {
  const log = newLog();
  const outcomes = await Promise.all(
    Array.from({ length: 40 }, (_, n) => slots.claim(log, `${log}:s${n}`, { owner: log }, { text: `text ${n}` })),
  );
  expect(outcomes.every((outcome) => outcome === 'stored')).toBe(true);
  const seqs = (await versionsStored.find({ owner: log }, { seq: 1 }).lean()).map((row) => row.seq).sort((a, b) => a - b);
  expect(seqs).toEqual(Array.from({ length: 40 }, (_, n) => n));
  expect(await slots.newestSeq(log)).toBe(39);

  const shown = await pageThrough(log);
  expect(shown.map((slot) => slot.seq)).toEqual(Array.from({ length: 40 }, (_, n) => 39 - n));
  expect(new Set(shown.map((slot) => slot.name)).size).toBe(40);
  const exported = [];
  for await (const slot of slots.all(log)) exported.push(slot.seq);
  expect(exported).toEqual(shown.map((slot) => slot.seq));
});

it('makes one slot of 10 concurrent claims of one name', async () => {
  const log = newLog();
  const outcomes = await Promise.all(
    Array.from({ length: 10 }, (_, n) => slots.claim(log, `${log}:one`, { owner: log }, { text: `claim ${n}` })),
  );
  expect(outcomes.filter((outcome) => outcome === 'stored')).toHaveLength(1);
  expect(outcomes.filter((outcome) => outcome === 'exists')).toHaveLength(9);
  expect(await versionsStored.countDocuments({ owner: log })).toBe(1);
  expect((await slots.read(log)).slots).toHaveLength(1);
});

it('leaves exactly one answer per slot after concurrent replaces and drops, the newest version, alone in reads', async () => {
  const log = newLog();
  const names = Array.from({ length: 8 }, (_, n) => `${log}:r${n}`);
  for (const name of names) await slots.claim(log, name, { owner: log }, { text: 'first' });
  // 8 writers per slot, every third a drop: each lost race is another writer's win.
  const writes = names.flatMap((name) =>
    Array.from({ length: 8 }, (_, writer) => (writer % 3 === 2 ? slots.drop(name) : slots.replace(name, { text: `${name} by ${writer}` }))),
  );
  await Promise.all(writes);

  const shown = await pageThrough(log);
  for (const name of names) {
    const versions = await versionsStored.find({ name }).lean();
    const newest = versions.reduce((a, b) => (a.version > b.version ? a : b));
    // Every write made a version: the claim, and one per replace or drop that found something to do.
    expect(versions.map((version) => version.version).sort((a, b) => a - b)).toEqual(versions.map((_, index) => index + 1));
    // The older versions are out of reads and keep no text.
    for (const older of versions.filter((version) => version !== newest)) {
      expect(older.g0).toBeUndefined();
      expect(older.text).toBeUndefined();
    }
    const answer = await slots.valueOf(name);
    const inPages = shown.filter((slot) => slot.name === name);
    if (newest.dropped) {
      expect(answer).toBeUndefined();
      expect(inPages).toEqual([]);
      expect(newest.g0).toBeUndefined();
    } else {
      expect(answer?.text).toBe(newest.text);
      expect(inPages.map((slot) => slot.text)).toEqual([newest.text]);
    }
  }
});

it('skips a slot whose drop stopped after its tombstone, and the next write finishes it', async () => {
  const log = newLog();
  const name = `${log}:stopped`;
  await slots.claim(log, name, { owner: log }, { text: 'kept?' });
  // What a drop leaves when it stops after its insert: the tombstone in reads, the first version not retired.
  const [first] = await versionsStored.find({ name }).lean();
  const id = `${log}|0#2`;
  await versionsStored.create({ ...first, _id: id, claim: `version:${id}`, version: 2, dropped: true, text: undefined });
  expect((await slots.read(log)).slots).toEqual([]);
  expect(await slots.valueOf(name)).toBeUndefined();
  expect(await slots.drop(name)).toBe(false);

  expect(await slots.replace(name, { text: 'given again' })).toBe(true);
  expect((await slots.read(log)).slots.map((slot) => slot.text)).toEqual(['given again']);
  expect(await versionsStored.countDocuments({ name, g0: { $exists: true } })).toBe(1);
});

it('reads past a long run of dropped slots with one existence check per empty group', async () => {
  const log = newLog();
  for (let n = 0; n < 4 * GROUP; n++) await slots.claim(log, `${log}:d${n}`, { owner: log }, { text: `slot ${n}` });
  // The two groups below the newest dropped: 20 pages without a slot to show.
  expect(await slots.dropWhere('owner', log, (slot) => slot.seq >= GROUP && slot.seq < 3 * GROUP)).toBe(2 * GROUP);
  const { total } = await countOperations(async () => {
    const { slots: page, next } = await slots.read(log, 3 * GROUP);
    expect(page.map((slot) => slot.seq)).toEqual([49, 48, 47, 46, 45]);
    expect(next).toBe(45);
  });
  // The newest number (known: one lookup), two empty groups, the group below them and its page.
  expect(total).toBeLessThanOrEqual(5);
  const shown = await pageThrough(log);
  expect(shown).toHaveLength(2 * GROUP);
  expect(await slots.removeWhere('owner', log, log)).toBeGreaterThan(0);
  expect(await slots.existsWhere('owner', log)).toBe(false);
});
