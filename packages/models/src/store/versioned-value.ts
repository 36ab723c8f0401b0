import { Schema, type SchemaDefinition } from 'mongoose';
import { claimOnce } from './claim-once';
import { primitiveCollection } from './collections';

/**
 * Versioned value: one small value per key that several writers change, exact on FerretDB (whose
 * updates rewrite the whole document they read, so two concurrent updates can lose one). Each change
 * is a new version claimed once under `<key>#<seq>`: two writers that read version n both try n + 1,
 * one wins, the other reads again and decides anew (compare-and-set). The newest version is the value.
 *
 * Older versions are retired, not deleted: a retired version loses its `key` (so reads no longer find
 * it) and its value but keeps its id, because a freed `<key>#<n>` could be claimed again by a writer that read
 * version n - 1 long ago, and its change would be lost. `owner` keeps the key for removing them all.
 *
 * Cost: a read is one equality lookup on `key` returning the live versions (one; two for a moment, or
 * after a stop between a change's insert and its cleanup); a change is one read and one insert, plus an
 * update per version it retires. Limits: meant for values that change at most every second or so (a
 * poll's closing, moderation, a logo's reason themes): writers of one key under contention retry, at most
 * MAX_ATTEMPTS times; a key keeps one small retired document per change until it is removed.
 */

export interface Version<Value> {
  seq: number;
  at: Date;
  value: Value;
}

/** Each attempt that fails is another writer's success: enough for as many writers of one key at once. */
const MAX_ATTEMPTS = 32;
const versionId = (key: string, seq: number) => `${key}#${String(seq).padStart(10, '0')}`;

/**
 * A versioned value stored in `collection`. `fields` are the value's fields (kept at the top level, so
 * `indexed` ones can be looked up by equality, e.g. every key whose value needs an admin's attention).
 */
export function versionedValue<Value extends object>(options: {
  collection: string;
  model: string;
  fields: SchemaDefinition;
  indexed?: (keyof Value & string)[];
  /** A field every version keeps, live or retired (e.g. the poll of per-logo keys), so all its keys go together. */
  groupedBy?: keyof Value & string;
}) {
  const schema = new Schema(
    {
      _id: { type: String, required: true },
      /** The key while this is a live version; absent once retired. */
      key: { type: String },
      /** The key, always (removal). */
      owner: { type: String, required: true },
      seq: { type: Number, required: true, min: 1 },
      at: { type: Date, required: true },
      ...options.fields,
    },
    { collection: options.collection, versionKey: false },
  );
  schema.index({ key: 1 });
  schema.index({ owner: 1 });
  for (const field of [...(options.indexed ?? []), ...(options.groupedBy ? [options.groupedBy] : [])]) schema.index({ [field]: 1 });
  const VersionModel = primitiveCollection('versionedValue', options.model, schema);

  const toVersion = ({ _id, key, owner: _owner, seq, at, ...value }: Record<string, unknown>): Version<Value> & { key: string } => ({
    key: key as string,
    seq: seq as number,
    at: at as Date,
    value: value as Value,
  });

  /** A key's live versions, newest first (one equality lookup). */
  async function liveVersions(key: string): Promise<Version<Value>[]> {
    const versions = (await VersionModel.find({ key }).lean<Record<string, unknown>[]>()).map(toVersion);
    return versions.map(({ seq, at, value }) => ({ seq, at, value })).sort((a, b) => b.seq - a.seq);
  }

  /** The newest version of a key, or null when it never changed (one equality lookup). */
  async function read(key: string): Promise<Version<Value> | null> {
    return (await liveVersions(key))[0] ?? null;
  }

  /** A retired version keeps its id (see the module comment) and its group, not its value: a key's history stays small. */
  const retiredFields = Object.fromEntries(
    ['key', ...Object.keys(options.fields).filter((field) => field !== options.groupedBy)].map((field) => [field, 1]),
  );

  /** Takes versions out of reads, keeping their ids claimed (see the module comment). */
  async function retire(key: string, versions: Version<Value>[]): Promise<void> {
    for (const version of versions) await VersionModel.updateOne({ _id: versionId(key, version.seq) }, { $unset: retiredFields });
  }

  /**
   * Changes a key's value: `decide` gets the newest version (null: none) and returns the next value, or
   * undefined to leave it. Repeated when another writer's change came first. Resolves with the newest
   * version afterwards.
   */
  async function change(
    key: string,
    decide: (current: Version<Value> | null) => Value | undefined,
    now: Date = new Date(),
  ): Promise<Version<Value> | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const live = await liveVersions(key);
      const current = live[0] ?? null;
      const next = decide(current);
      if (next === undefined) return current;
      const seq = (current?.seq ?? 0) + 1;
      if (!(await claimOnce(VersionModel, { _id: versionId(key, seq), key, owner: key, seq, at: now, ...next }))) continue;
      // Only the newest decides; versions left live by a stop just make reads a row longer until this.
      await retire(key, live);
      return { seq, at: now, value: next };
    }
    throw new Error(`versioned value ${options.collection}/${key} kept changing during ${MAX_ATTEMPTS} attempts`);
  }

  /** The newest versions whose `field` equals `value` (one equality lookup on an indexed field). */
  async function findWhere<Field extends keyof Value & string>(
    field: Field,
    value: Value[Field],
  ): Promise<(Version<Value> & { key: string })[]> {
    const found = (await VersionModel.find({ [field]: value }).lean<Record<string, unknown>[]>()).map(toVersion);
    const newest = new Map<string, Version<Value> & { key: string }>();
    for (const version of found) if (version.key && (newest.get(version.key)?.seq ?? 0) < version.seq) newest.set(version.key, version);
    // A version found may have a newer one without the field: only the key's newest counts.
    const current = await Promise.all(
      [...newest.values()].map(async (version) => ((await read(version.key))?.seq === version.seq ? version : null)),
    );
    return current.filter((version): version is Version<Value> & { key: string } => version !== null);
  }

  /** Removes every version of a key, live or retired; true when it had any. */
  async function remove(key: string): Promise<boolean> {
    return (await VersionModel.deleteMany({ owner: key })).deletedCount > 0;
  }

  /** Whether a key has any version stored, live or retired. */
  const exists = async (key: string): Promise<boolean> => (await VersionModel.exists({ owner: key })) !== null;

  /** Removes every version, live or retired, of every key whose `groupedBy` field is `group`; resolves with how many went. */
  async function removeGroup(group: string): Promise<number> {
    if (!options.groupedBy) throw new Error(`versioned value ${options.collection} has no groupedBy field`);
    return (await VersionModel.deleteMany({ [options.groupedBy]: group })).deletedCount;
  }

  /** Whether any key of the group has a version stored, live or retired. */
  async function groupExists(group: string): Promise<boolean> {
    if (!options.groupedBy) throw new Error(`versioned value ${options.collection} has no groupedBy field`);
    return (await VersionModel.exists({ [options.groupedBy]: group })) !== null;
  }

  return { read, change, findWhere, remove, exists, removeGroup, groupExists } as const;
}
