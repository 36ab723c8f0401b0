import { model, type Schema } from 'mongoose';

/**
 * Which primitive owns each collection: every primitive creates its collections through
 * `primitiveCollection` (a claim-once collection is created by its feature's module, which then writes it
 * only with claimOnce, claimAll and removeClaims), so a collection has exactly one owner and is written
 * only through that owner's operations. The collection-ownership test reads this to tell the collections
 * built on the primitives from those that still keep their own protocol. Not part of @logovote/models' entry.
 */
export type Primitive = 'claimOnce' | 'exactTally' | 'versionedValue' | 'timeBucketedLog' | 'numberedSlots';

const owners = new Map<string, Primitive>();

/** Registers `schema`'s collection under `primitive` and makes its mongoose model; throws if another primitive owns it. */
export function primitiveCollection<TSchema extends Schema>(primitive: Primitive, modelName: string, schema: TSchema) {
  const collection = schema.get('collection');
  if (!collection) throw new Error(`model ${modelName} names no collection`);
  const owner = owners.get(collection);
  if (owner) throw new Error(`collection ${collection} is already owned by ${owner}`);
  owners.set(collection, primitive);
  return model(modelName, schema);
}

/** Every collection a primitive owns, by name, with its owner. */
export const collectionOwners = (): ReadonlyMap<string, Primitive> => owners;
