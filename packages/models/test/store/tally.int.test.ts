/**
 * Exact tally on the real store (FerretDB on PostgreSQL in `npm test`): counts stay exact while writers
 * (some racing for the same revision of one member) and several folders run at once, every revision is
 * folded into exactly one step, and a fold that stopped after claiming its step is counted once and
 * finished by the next fold.
 */
import { randomBytes } from 'node:crypto';
import { Query } from 'mongoose';
import { exactTally, type Revision } from '../../src/store/tally';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../../../../tests/support/integration';
import { appendFolded, storedModel } from '../support';

jest.setTimeout(120_000);

const tally = exactTally({ revisions: 'test_tally_revisions', steps: 'test_tally_steps', model: 'TestTally' });

/** The tally's documents as stored, to look under the primitive and to leave a fold stopped halfway. */
const revisionsStored = storedModel<Revision & { _id: string; pending?: boolean }>('test_tally_revisions');
const stepsStored = storedModel<{
  _id: string;
  tally: string;
  seq: number;
  counts: { value: string; count: number }[];
  folded: string[];
  at: Date;
}>('test_tally_steps');

beforeAll(() => connectTestDatabase(testDatabaseUri('tally')));
afterAll(() => dropTestDatabase());

const newId = () => randomBytes(6).toString('hex');
const VALUES = ['a', 'b', 'c', 'd'];
const total = (counts: Map<string, number>) => [...counts.values()].reduce((sum, n) => sum + n, 0);
/** The step ids of a tally, as the primitive names them (zero-padded seq). */
const stepId = (name: string, seq: number) => `${name}#${String(seq).padStart(10, '0')}`;

/** Moves a member to `to` as a service does: the next revision after its head, again if another writer took it. */
async function setValue(name: string, member: string, to: string | null): Promise<number> {
  for (;;) {
    const { rev, value } = await tally.head(member);
    if (value === to) return 0;
    if (await tally.append({ tally: name, member, rev: rev + 1, from: value, to })) return 1;
  }
}

/** The counts the members' newest values add up to. */
async function countsOfHeads(members: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const member of members) {
    const { value } = await tally.head(member);
    if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

async function stepsOf(name: string) {
  return (await stepsStored.find({ tally: name }, { seq: 1, folded: 1 }).lean()).sort((a, b) => a.seq - b.seq);
}

it('stays exact while 200 writers and 4 folders race, and folds every revision into exactly one step', async () => {
  const name = `t-${newId()}`;
  // Steps are stamped with one time: none ages out while the test runs, so every step can be inspected.
  const now = new Date();
  const members = Array.from({ length: 40 }, (_, index) => `${name}/m${index}`);
  // Revision 1 of 10 members, claimed by 10 writers each at once.
  const contested = Array.from({ length: 10 }, (_, index) => `${name}/c${index}`);

  let writing = true;
  const readings: Map<string, number>[] = [];
  const folders = Array.from({ length: 4 }, async () => {
    while (writing) await tally.fold(name, now);
  });
  const readers = Array.from({ length: 2 }, async () => {
    while (writing) readings.push(await tally.readCounts(name));
  });

  const setters = Array.from({ length: 200 }, (_, writer) =>
    // Each member gets 5 writers setting it to values of their own, every seventh one taking it back (null).
    setValue(name, members[writer % members.length]!, writer % 7 === 0 ? null : VALUES[writer % VALUES.length]!),
  );
  const claims = contested.flatMap((member) =>
    VALUES.concat(VALUES, ['a', 'b']).map((to) => tally.append({ tally: name, member, rev: 1, from: null, to })),
  );
  const [, won] = await Promise.all([Promise.all(setters), Promise.all(claims)]);
  // Exactly one of the 10 writers of each contested revision won it.
  expect(won.filter(Boolean)).toHaveLength(contested.length);

  const expected = await countsOfHeads([...members, ...contested]);
  // Exact while the folders are still at it.
  expect(await tally.readCounts(name)).toEqual(expected);
  writing = false;
  await Promise.all([...folders, ...readers]);
  await tally.fold(name, now);
  expect(await tally.readCounts(name)).toEqual(expected);
  expect(await revisionsStored.countDocuments({ tally: name, pending: true })).toBe(0);

  // No reading ever had a negative count, or more members holding a value than there are members.
  expect(readings.length).toBeGreaterThan(0);
  for (const reading of readings) {
    expect([...reading.values()].every((count) => count > 0)).toBe(true);
    expect(total(reading)).toBeLessThanOrEqual(members.length + contested.length);
  }

  // Each member's revisions chain: 1, 2, 3… each from the value the one before set.
  const revisions = await revisionsStored.find({ tally: name }).lean<(Revision & { _id: string })[]>();
  for (const member of [...members, ...contested]) {
    const chain = revisions.filter((revision) => revision.member === member).sort((a, b) => a.rev - b.rev);
    chain.forEach((revision, index) => {
      expect(revision.rev).toBe(index + 1);
      expect(revision.from).toBe(index === 0 ? null : chain[index - 1]!.to);
    });
  }

  // Steps are consecutive (one folder won each) and every revision is listed by exactly one of them.
  const steps = await stepsOf(name);
  steps.forEach((step, index) => expect(step.seq).toBe(index + 1));
  const folded = steps.flatMap((step) => step.folded);
  expect(new Set(folded).size).toBe(folded.length);
  expect(folded.sort()).toEqual(revisions.map((revision) => revision._id).sort());
});

it('counts once the revisions of a fold that stopped after claiming its step, and the next fold finishes it', async () => {
  const name = `t-${newId()}`;
  const now = new Date();
  const first = Array.from({ length: 6 }, (_, index) => ({
    tally: name,
    member: `${name}/m${index}`,
    rev: 1,
    from: null,
    to: VALUES[index % 2]!,
  }));
  for (const revision of first) expect(await tally.append(revision)).toBe(true);

  // The stopped folder's step: claimed with its counts and list, its revisions still flagged pending.
  await stepsStored.create({
    _id: stepId(name, 1),
    tally: name,
    seq: 1,
    counts: [
      { value: 'a', count: 3 },
      { value: 'b', count: 3 },
    ],
    folded: first.map((revision) => `${revision.member}#1`),
    at: now,
  });
  expect(await revisionsStored.countDocuments({ tally: name, pending: true })).toBe(6);
  expect(await tally.readCounts(name)).toEqual(
    new Map([
      ['a', 3],
      ['b', 3],
    ]),
  );

  // Writes go on meanwhile: a member moved, another taken back, a new one.
  expect(await tally.append({ tally: name, member: `${name}/m0`, rev: 2, from: 'a', to: 'b' })).toBe(true);
  expect(await tally.append({ tally: name, member: `${name}/m1`, rev: 2, from: 'b', to: null })).toBe(true);
  expect(await tally.append({ tally: name, member: `${name}/m9`, rev: 1, from: null, to: 'c' })).toBe(true);
  const expected = new Map([
    ['a', 2],
    ['b', 3],
    ['c', 1],
  ]);
  expect(await tally.readCounts(name)).toEqual(expected);

  // The next fold finishes the stopped one and folds only what came after it.
  expect(await tally.fold(name, now)).toBe(3);
  expect(await revisionsStored.countDocuments({ tally: name, pending: true })).toBe(0);
  expect(await tally.readCounts(name)).toEqual(expected);
  expect(await tally.fold(name, now)).toBe(0);
  expect((await stepsOf(name)).map((step) => step.seq)).toEqual([1, 2]);
  expect(await tally.readCounts(name)).toEqual(expected);
});

it('stays exact when folders race a fold that stopped after claiming its step', async () => {
  const name = `t-${newId()}`;
  const now = new Date();
  const first = Array.from({ length: 10 }, (_, index) => ({ tally: name, member: `${name}/m${index}`, rev: 1, from: null, to: 'a' }));
  for (const revision of first) await tally.append(revision);
  await stepsStored.create({
    _id: stepId(name, 1),
    tally: name,
    seq: 1,
    counts: [{ value: 'a', count: 10 }],
    folded: first.map((revision) => `${revision.member}#1`),
    at: now,
  });

  let writing = true;
  const folders = Array.from({ length: 4 }, async () => {
    while (writing) await tally.fold(name, now);
  });
  const later = Array.from({ length: 50 }, (_, index) => `${name}/n${index}`);
  await Promise.all(later.map((member, index) => setValue(name, member, VALUES[index % VALUES.length]!)));
  writing = false;
  await Promise.all(folders);
  await tally.fold(name, now);

  const expected = await countsOfHeads([...first.map((revision) => revision.member), ...later]);
  expect(await tally.readCounts(name)).toEqual(expected);
  expect(await revisionsStored.countDocuments({ tally: name, pending: true })).toBe(0);
  const folded = (await stepsOf(name)).flatMap((step) => step.folded);
  expect(new Set(folded).size).toBe(folded.length);
  expect(folded).toHaveLength(60);
});

it("counts a stopped fold's revisions once when a bulk load comes next, after its step is pruned", async () => {
  const name = `t-${newId()}`;
  const start = Date.now();
  const first = Array.from({ length: 3 }, (_, index) => ({ tally: name, member: `${name}/m${index}`, rev: 1, from: null, to: 'a' }));
  for (const revision of first) await tally.append(revision);
  await stepsStored.create({
    _id: stepId(name, 1),
    tally: name,
    seq: 1,
    counts: [{ value: 'a', count: 3 }],
    folded: first.map((revision) => `${revision.member}#1`),
    at: new Date(start),
  });
  await appendFolded(tally, name, [{ member: `${name}/f0`, rev: 1, from: null, to: 'b' }], new Date(start));
  expect(await tally.readCounts(name)).toEqual(
    new Map([
      ['a', 3],
      ['b', 1],
    ]),
  );
  expect(await tally.fold(name, new Date(start))).toBe(0);
  for (let n = 0; n < 3; n++) {
    await tally.append({ tally: name, member: `${name}/x${n}`, rev: 1, from: null, to: 'c' });
    await tally.fold(name, new Date(start + 120_000));
  }
  expect(await tally.readCounts(name)).toEqual(
    new Map([
      ['a', 3],
      ['b', 1],
      ['c', 3],
    ]),
  );
});

it('starts a read of counts over when it took so long that a step it needed could have been pruned', async () => {
  const name = `t-${newId()}`;
  const start = Date.now();
  await tally.append({ tally: name, member: `${name}/m0`, rev: 1, from: null, to: 'a' });
  await tally.append({ tally: name, member: `${name}/m1`, rev: 1, from: null, to: 'b' });
  // Between the reader's two lookups, 20 s of folding: the two revisions it read as pending are folded
  // into step 1, and step 1 is pruned; the reader's clock says its read took 6 s.
  let offset = 0;
  const realNow = performance.now.bind(performance);
  jest.spyOn(performance, 'now').mockImplementation(() => realNow() + offset);
  let between: (() => Promise<void>) | undefined = async () => {
    await tally.fold(name, new Date(start));
    for (let n = 1; n <= 3; n++) {
      await tally.append({ tally: name, member: `${name}/x${n}`, rev: 1, from: null, to: 'c' });
      await tally.fold(name, new Date(start + n * 20_000));
    }
    offset += 6_000;
  };
  const exec = Query.prototype.exec;
  jest.spyOn(Query.prototype, 'exec').mockImplementation(async function (this: Query<unknown, unknown>) {
    if (between && this.model.collection.collectionName === 'test_tally_steps') {
      const run = between;
      between = undefined;
      await run();
    }
    return exec.call(this);
  });
  try {
    expect(await tally.readCounts(name)).toEqual(
      new Map([
        ['a', 1],
        ['b', 1],
        ['c', 3],
      ]),
    );
    expect((await stepsOf(name)).map((step) => step.seq)).toEqual([2, 3, 4]);
  } finally {
    jest.restoreAllMocks();
  }
});
