/**
 * Every collection belongs to one primitive (docs/vote-counts.md, "Primitives"): the test loads every
 * module of the product that makes a mongoose model, and fails when a collection is neither created by a
 * primitive (store/collections.ts records the one owner of each) nor listed below as a known exception,
 * or when product code writes a model itself, outside the primitives' modules, for a collection that is
 * not such an exception. The exceptions are what still keeps its own protocol: each says why.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import mongoose from 'mongoose';
import { collectionOwners } from '../src/store/collections';

const ROOT = join(__dirname, '../../..');

interface Exception {
  reason: string;
  /** The product files that write the collection directly (repository paths). */
  writers: string[];
}

/** Collections that still run their own protocol, each with why and who writes it. */
const KNOWN_EXCEPTIONS: Record<string, Exception> = {
  vote_signals: {
    reason: 'hand-rolled per-second buckets, swept by a range of seconds',
    writers: ['packages/models/src/vote-signals.ts'],
  },
  fingerprint_test_sessions: {
    reason: "the fingerprint test tool's scratch records, trimmed to the newest by a range delete",
    writers: ['services/votes/src/models/fingerprint-test.ts'],
  },
  fingerprint_test_votes: {
    reason: "the fingerprint test tool's scratch records, trimmed to the newest by a range delete",
    writers: ['services/votes/src/models/fingerprint-test.ts'],
  },
};

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

it('has every collection created by exactly one primitive, or listed as a known exception', () => {
  const owners = collectionOwners();
  const unowned = collections().filter((name) => !owners.has(name) && !(name in KNOWN_EXCEPTIONS));
  expect(unowned).toEqual([]);
  // An exception moved onto a primitive leaves the list; one whose collection is gone too.
  const stale = Object.keys(KNOWN_EXCEPTIONS).filter((name) => owners.has(name) || !collections().includes(name));
  expect(stale).toEqual([]);
});

const WRITE_CALL =
  /\b([A-Za-z_$][\w$]*)\s*\.\s*(create|insertMany|insertOne|updateOne|updateMany|replaceOne|findOneAndUpdate|findByIdAndUpdate|findOneAndReplace|findOneAndDelete|findByIdAndDelete|deleteOne|deleteMany|bulkWrite|save)\s*\(/g;
/** A claim, which an exception's own protocol may be built of (its numbering, say). */
const CLAIM_CALL = /\b(?:claimOnce|claimAll)\(\s*([A-Za-z_$][\w$]*)/g;
const UPDATE_OPERATOR = /\$(set|unset|inc|push|pull|addToSet|rename|setOnInsert)\b/g;

it('leaves writes to the primitives, outside the known exceptions', () => {
  const exceptionsOf = (repoPath: string) =>
    Object.keys(KNOWN_EXCEPTIONS).filter((name) => KNOWN_EXCEPTIONS[name]!.writers.includes(repoPath));
  const offences: string[] = [];
  for (const { path, repoPath } of productFiles) {
    if (repoPath.startsWith(STORE_DIR)) continue;
    const source = code(path);
    const allowed = exceptionsOf(repoPath);
    for (const [call, receiver, method] of source.matchAll(WRITE_CALL)) {
      const collection = modelNames.get(receiver!);
      // A model's raw driver collection (`collection.deleteMany`) counts as the file's exception's.
      const rawCollection = receiver === 'collection' && allowed.length > 0;
      if (collection === undefined && receiver !== 'collection') continue;
      if (rawCollection || (collection !== undefined && allowed.includes(collection))) continue;
      offences.push(`${repoPath}: ${call.trim()} (${method} on ${collection ?? receiver})`);
    }
    for (const [operator] of source.matchAll(UPDATE_OPERATOR))
      if (allowed.length === 0) offences.push(`${repoPath}: ${operator} (an in-place update)`);
  }
  expect(offences).toEqual([]);
});

it('names only writers that still write their collection', () => {
  const idle: string[] = [];
  for (const [name, exception] of Object.entries(KNOWN_EXCEPTIONS)) {
    for (const writer of exception.writers) {
      const source = code(join(ROOT, writer));
      const writes =
        [...source.matchAll(WRITE_CALL)].some(([, receiver]) => modelNames.get(receiver!) === name || receiver === 'collection') ||
        [...source.matchAll(CLAIM_CALL)].some(([, receiver]) => modelNames.get(receiver!) === name);
      if (!writes) idle.push(`${writer} (${name})`);
    }
  }
  expect(idle).toEqual([]);
});
