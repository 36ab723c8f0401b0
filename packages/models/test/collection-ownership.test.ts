/**
 * Every collection belongs to one primitive (docs/vote-counts.md, "Primitives"): the test loads every
 * module of the product that makes a mongoose model, and fails when a collection is not created by a
 * primitive (store/collections.ts records the one owner of each), or when product code writes a model
 * itself, outside the primitives' modules.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import mongoose from 'mongoose';
import { collectionOwners } from '../src/store/collections';

const ROOT = join(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const productDirs = ['packages', 'services'].flatMap((group) =>
  readdirSync(join(ROOT, group))
    .map((name) => join(ROOT, group, name, 'src'))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory()),
);
const productFiles = productDirs.flatMap(sourceFiles).map((path) => ({ path, repoPath: relative(ROOT, path) }));
const STORE_DIR = 'packages/models/src/store/';

/** The source without its comments, so prose about `$set` or `create(` is not taken for code. */
const code = (path: string) =>
  readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const MAKES_A_COLLECTION = /\b(model|primitiveCollection|exactTally|versionedValue|timeBucketedLog|numberedSlots)\s*(<[^>]*>)?\s*\(/;

/** The collection of each exported model, by the name product code uses for it. */
const modelNames = new Map<string, string>();

beforeAll(() => {
  for (const { path } of productFiles.filter(({ path }) => MAKES_A_COLLECTION.test(code(path)))) {
    const exports = jest.requireActual<Record<string, unknown>>(path);
    for (const [name, value] of Object.entries(exports)) {
      const model = value as Partial<mongoose.Model<unknown>> | null;
      if (typeof value === 'function' && model?.collection?.collectionName && model.modelName)
        modelNames.set(name, model.collection.collectionName);
    }
  }
});

const collections = () => Object.values(mongoose.models).map((model) => model.collection.collectionName);

it('finds every collection of the product', () => {
  // A floor, so a broken discovery cannot pass by finding nothing.
  expect(collections().length).toBeGreaterThan(25);
  expect(collections()).toEqual(
    expect.arrayContaining(['polls', 'vote_ledger', 'vote_tallies', 'poll_status', 'log_buckets', 'spent_proofs']),
  );
});

it('stores each collection through one model', () => {
  const seen = collections();
  expect(seen.filter((name, index) => seen.indexOf(name) !== index)).toEqual([]);
});

it('has every collection created by exactly one primitive', () => {
  const owners = collectionOwners();
  expect(collections().filter((name) => !owners.has(name))).toEqual([]);
});

const WRITE_CALL =
  /\b([A-Za-z_$][\w$]*)\s*\.\s*(create|insertMany|insertOne|updateOne|updateMany|replaceOne|findOneAndUpdate|findByIdAndUpdate|findOneAndReplace|findOneAndDelete|findByIdAndDelete|deleteOne|deleteMany|bulkWrite|save)\s*\(/g;
const UPDATE_OPERATOR = /\$(set|unset|inc|push|pull|addToSet|rename|setOnInsert)\b/g;

it('leaves writes to the primitives', () => {
  const offences: string[] = [];
  for (const { path, repoPath } of productFiles) {
    if (repoPath.startsWith(STORE_DIR)) continue;
    const source = code(path);
    for (const [call, receiver, method] of source.matchAll(WRITE_CALL)) {
      const collection = modelNames.get(receiver!);
      // A model's raw driver collection (`collection.deleteMany`) is a write too.
      if (collection === undefined && receiver !== 'collection') continue;
      offences.push(`${repoPath}: ${call.trim()} (${method} on ${collection ?? receiver})`);
    }
    for (const [operator] of source.matchAll(UPDATE_OPERATOR)) offences.push(`${repoPath}: ${operator} (an in-place update)`);
  }
  expect(offences).toEqual([]);
});
