import { Schema, model, type SchemaDefinition } from 'mongoose';
import { claimOnce } from './claim-once';

/**
 * Versioned value: one small value per key that several writers change, exact on FerretDB (whose
 * updates rewrite the whole document they read, so two concurrent updates can lose one). Each change
 * is a new version claimed once under `<key>#<seq>`: two writers that read version n both try n + 1,
 * one wins, the other reads again and decides anew (compare-and-set). The newest version is the value;
 * the one before it is removed once the newest is in.
 *
 * Cost: a read is one equality lookup on `key` returning one version (two for a moment, or after a stop
 * between a change's insert and its cleanup); a change is one read and one insert, plus a delete.
 * Limits: meant for values that change rarely (a poll's closing, moderation): writers of one key under
 * heavy contention retry, and give up after MAX_ATTEMPTS.
 */

export interface Version<Value> {
  seq: number;
  at: Date;
  value: Value;
}

const MAX_ATTEMPTS = 8;
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
}) {
  const schema = new Schema(
    {
      _id: { type: String, required: true },
      key: { type: String, required: true },
      seq: { type: Number, required: true, min: 1 },
      at: { type: Date, required: true },
      ...options.fields,
    },
    { collection: options.collection, versionKey: false },
  );
  schema.index({ key: 1 });
  for (const field of options.indexed ?? []) schema.index({ [field]: 1 });
  const VersionModel = model(options.model, schema);

  const toVersion = ({ _id, key, seq, at, ...value }: Record<string, unknown>): Version<Value> & { key: string } => ({
    key: key as string,
    seq: seq as number,
    at: at as Date,
    value: value as Value,
  });

  /** The newest version of a key, or null when it never changed (one equality lookup). */
  async function read(key: string): Promise<Version<Value> | null> {
    const versions = await VersionModel.find({ key }).lean<Record<string, unknown>[]>();
    const newest = versions
      .map(toVersion)
      .reduce<Version<Value> | null>((best, version) => (best && best.seq > version.seq ? best : version), null);
    return newest && { seq: newest.seq, at: newest.at, value: newest.value };
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
      const current = await read(key);
      const next = decide(current);
      if (next === undefined) return current;
      const seq = (current?.seq ?? 0) + 1;
      if (!(await claimOnce(VersionModel, { _id: versionId(key, seq), key, seq, at: now, ...next }))) continue;
      // Only the newest decides; one left behind by a stop just makes reads a row longer until the next change.
      if (current) await VersionModel.deleteOne({ _id: versionId(key, current.seq) });
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
    for (const version of found) if ((newest.get(version.key)?.seq ?? 0) < version.seq) newest.set(version.key, version);
    // A version found may have a newer one without the field: only the key's newest counts.
    const current = await Promise.all(
      [...newest.values()].map(async (version) => ((await read(version.key))?.seq === version.seq ? version : null)),
    );
    return current.filter((version): version is Version<Value> & { key: string } => version !== null);
  }

  /** Removes every version of a key. */
  async function remove(key: string): Promise<void> {
    await VersionModel.deleteMany({ key });
  }

  /** Whether a key has any version stored. */
  const exists = async (key: string): Promise<boolean> => (await VersionModel.exists({ key })) !== null;

  return { VersionModel, read, change, findWhere, remove, exists } as const;
}
