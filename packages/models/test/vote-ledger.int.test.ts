/**
 * The vote ledger and its tallies on the real store (FerretDB on PostgreSQL in `npm test`): counts stay
 * exact while votes, folders and readers race, and after a fold that stopped halfway.
 */
import { randomBytes } from 'node:crypto';
import { VoterSeatModel, currentVote, voterKeyOf, voteLedger } from '../src';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../../../tests/support/integration';
import { insertFirstVotes, storedModel } from './support';

jest.setTimeout(120_000);

beforeAll(() => connectTestDatabase(testDatabaseUri('vote_ledger'), [VoterSeatModel]));
afterAll(() => dropTestDatabase());

const newId = () => randomBytes(6).toString('hex');
const LOGOS = ['a', 'b', 'c'];

function firstVotes(pollId: string, count: number) {
  return Array.from({ length: count }, (_, index) => ({
    pollId,
    fingerprint: newId(),
    logoId: LOGOS[index % LOGOS.length]!,
    ipHash: newId(),
    seat: 0,
  }));
}

const expectedCounts = (votes: { logoId: string }[]) => {
  const counts = new Map<string, number>();
  for (const { logoId } of votes) counts.set(logoId, (counts.get(logoId) ?? 0) + 1);
  return counts;
};

it('counts first votes and changes exactly, before and after folding, and folds each entry once', async () => {
  const pollId = newId();
  const votes = firstVotes(pollId, 30);
  await insertFirstVotes(votes);
  const moved = votes[0]!;
  const id = voterKeyOf(pollId, moved.fingerprint, moved.ipHash);
  expect(await voteLedger.append({ tally: pollId, member: id, rev: 2, from: moved.logoId, to: 'c' })).toBe(true);
  // The same revision twice: refused, so one change can never count twice.
  expect(await voteLedger.append({ tally: pollId, member: id, rev: 2, from: moved.logoId, to: 'b' })).toBe(false);
  const expected = expectedCounts([...votes.slice(1), { logoId: 'c' }]);

  expect(await voteLedger.readCounts(pollId)).toEqual(expected);
  expect(await voteLedger.fold(pollId)).toBe(31);
  expect(await voteLedger.readCounts(pollId)).toEqual(expected);
  expect(await voteLedger.fold(pollId)).toBe(0);
  expect(await storedModel('vote_ledger').countDocuments({ tally: pollId, pending: true })).toBe(0);
  expect(await currentVote(id)).toEqual({ rev: 2, logoId: 'c', seated: true });
});

it('stays exact while votes arrive, several folders race and readers read', async () => {
  const pollId = newId();
  const batches = Array.from({ length: 12 }, () => firstVotes(pollId, 25));
  let writing = true;
  const readings: number[] = [];
  const folders = Array.from({ length: 4 }, async () => {
    while (writing) await voteLedger.fold(pollId);
  });
  const readers = Array.from({ length: 2 }, async () => {
    while (writing) readings.push([...(await voteLedger.readCounts(pollId)).values()].reduce((sum, n) => sum + n, 0));
  });
  let written = 0;
  for (const batch of batches) {
    await insertFirstVotes(batch);
    written += batch.length;
    // What a reader sees never runs ahead of what was written, nor falls below what was before.
    const total = [...(await voteLedger.readCounts(pollId)).values()].reduce((sum, n) => sum + n, 0);
    expect(total).toBe(written);
  }
  writing = false;
  await Promise.all([...folders, ...readers]);
  await voteLedger.fold(pollId);
  expect(await voteLedger.readCounts(pollId)).toEqual(expectedCounts(batches.flat()));
  expect(readings.every((total) => total <= written)).toBe(true);
  const steps = (await storedModel<{ seq: number }>('vote_tallies').find({ tally: pollId }, { seq: 1 }).lean())
    .map((step) => step.seq)
    .sort((a, b) => a - b);
  expect(steps.length).toBeGreaterThan(0);
  // Steps are consecutive: no two folders ever wrote the same one.
  steps.forEach((seq, index) => index > 0 && expect(seq).toBe(steps[index - 1]! + 1));
});

it('finishes a fold that stopped after writing its step, counting its entries once', async () => {
  const pollId = newId();
  const votes = firstVotes(pollId, 6);
  await insertFirstVotes(votes);
  const entries = await storedModel('vote_ledger').find({ tally: pollId }, { to: 1 }).lean();
  // A folder that stopped right after its step: entries folded, but still marked pending.
  await storedModel('vote_tallies').create({
    _id: `${pollId}#${'1'.padStart(10, '0')}`,
    tally: pollId,
    seq: 1,
    counts: [...expectedCounts(votes)].map(([value, count]) => ({ value, count })),
    folded: entries.map((entry) => entry._id),
  });
  expect(await voteLedger.readCounts(pollId)).toEqual(expectedCounts(votes));
  expect(await voteLedger.fold(pollId)).toBe(0);
  expect(await storedModel('vote_ledger').countDocuments({ tally: pollId, pending: true })).toBe(0);
  expect(await voteLedger.readCounts(pollId)).toEqual(expectedCounts(votes));
});
