/**
 * Claim-once on the real store (FerretDB on PostgreSQL in `npm test`): of any number of racing inserts
 * under one unique key, exactly one wins, whether the key is `_id` or another field's unique index, and
 * errors other than a duplicate key reach the caller.
 */
import { randomBytes } from 'node:crypto';
import { Schema, model } from 'mongoose';
import { claimOnce, isDuplicateKey } from '../../src/store/claim-once';
import { connectTestDatabase, dropTestDatabase, testDatabaseUri } from '../../../../tests/support/integration';

jest.setTimeout(120_000);

const ClaimModel = model(
  'TestClaim',
  new Schema(
    {
      _id: { type: String, required: true },
      /** A second unique key: claims with different `_id`s race on it. */
      slot: { type: String, required: true, unique: true },
      writer: { type: Number, required: true },
    },
    { collection: 'test_claims', versionKey: false },
  ),
);

beforeAll(() => connectTestDatabase(testDatabaseUri('claim_once'), [ClaimModel]));
afterAll(() => dropTestDatabase());

const newKey = () => randomBytes(6).toString('hex');

it('lets exactly one of 200 racing writers win each of 20 keys, and keeps the winner’s document', async () => {
  const keys = Array.from({ length: 20 }, newKey);
  const attempts = Array.from({ length: 200 }, (_, writer) => ({ key: keys[writer % keys.length]!, writer }));
  const won = await Promise.all(attempts.map(({ key, writer }) => claimOnce(ClaimModel, { _id: key, slot: key, writer })));

  for (const key of keys) {
    const winners = attempts.filter((attempt, index) => attempt.key === key && won[index]);
    expect(winners).toHaveLength(1);
    // The stored document is the winner's: a loser's insert changed nothing.
    expect(await ClaimModel.findById(key).lean()).toMatchObject({ slot: key, writer: winners[0]!.writer });
  }
  expect(await ClaimModel.countDocuments({ _id: { $in: keys } })).toBe(keys.length);
});

it('decides races on a unique field other than _id the same way', async () => {
  const slot = newKey();
  const won = await Promise.all(Array.from({ length: 100 }, (_, writer) => claimOnce(ClaimModel, { _id: newKey(), slot, writer })));
  expect(won.filter(Boolean)).toHaveLength(1);
  expect(await ClaimModel.countDocuments({ slot })).toBe(1);
});

it('refuses a key claimed earlier, and rethrows errors that are not duplicate keys', async () => {
  const key = newKey();
  expect(await claimOnce(ClaimModel, { _id: key, slot: key, writer: 1 })).toBe(true);
  expect(await claimOnce(ClaimModel, { _id: key, slot: newKey(), writer: 2 })).toBe(false);

  // A validation error (no slot) is not a lost race: the caller must hear of it.
  const invalid = claimOnce(ClaimModel, { _id: newKey(), writer: 3 });
  await expect(invalid).rejects.toThrow(/slot/);
  expect(isDuplicateKey(await invalid.catch((error: unknown) => error))).toBe(false);
  expect(await ClaimModel.countDocuments({ _id: key })).toBe(1);
});
