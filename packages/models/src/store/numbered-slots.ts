import { Schema, type SchemaDefinition } from 'mongoose';
import { claimOnce } from './claim-once';
import { primitiveCollection } from './collections';

/**
 * Numbered slots: named entries of a log (a logo's reasons, a logo's notes, the admin list's polls) numbered
 * 0, 1, 2, ... in order of arrival, whose value can be replaced or dropped, read newest first a page at a
 * time, on MongoDB and on FerretDB alike (whose updates rewrite the whole document they read, so two
 * concurrent updates can lose one).
 *
 * Numbering: a slot's first version is claimed once (claimOnce) under `<log>|<seq>#1` and carries its
 * name's claim, so two slots racing for one number or two claims of one name are decided by unique keys,
 * never by `$inc` or a read-modify-write. A number is only claimed once the one below it exists, so a log's
 * numbers are always 0..newest without a gap, and the newest is found by key lookups alone.
 *
 * Values: a slot's value is never changed in place. Replacing it or dropping the slot claims the slot's
 * next version (`<log>|<seq>#<v>`; a drop's is a tombstone); of writers racing for one version exactly one
 * wins and the others read again and write the version after, so the newest version is the slot's one
 * answer. A version carries the keys reads use (`g0`, `g1`, ...: the groups of numbers its slot is in)
 * until a newer one retires it, unsetting those keys and its value (a replaced or dropped text is not
 * kept): every retirer unsets the same fields, so no write of one can be lost to another's. A drop
 * retires its own tombstone last, so a stop halfway leaves a tombstone that readers skip. A retired
 * version keeps its id, so its version is never claimed again, and its name and fields, so a slot's
 * versions are always found by its name.
 *
 * Reads: every read is one equality filter on an indexed key, which FerretDB sends to PostgreSQL, and no
 * sort or limit is ever asked of the database. A page read takes the newest version of each slot it
 * finds and skips the dropped; before reading a page it passes over every larger group that holds no
 * visible version with one existence check, so runs of dropped slots cost a few lookups.
 *
 * Cost: a claim is 1 lookup and 1 insert when this process knows the log's newest number, about 34 lookups
 * for 100 000 slots when it does not; a replace is 1 lookup by name, 1 insert and 1 update; a drop 1 update
 * more; a page is 1 to `MAX_PAGES_READ` page lookups plus one existence check per larger group.
 * Limits: one sequence per log, so writers of one log at the same moment contend for the next number, and a
 * claim gives up ('busy') after `MAX_ATTEMPTS` numbers taken by others; an empty page inside a group that
 * holds something is still read; a slot keeps one small document per version until the slots are removed
 * together (`removeWhere`).
 */

/** A slot as a reader gets it: its number, name and date, the collection's fields and its newest value. */
export type Slot<Fields extends object, Value extends object> = { seq: number; name: string; at: Date } & Fields & Value;

/** How often a write tries again after other writers of the same log or slot took the number or version first. */
const MAX_ATTEMPTS = 50;
/** Page reads one read makes at most before answering with what it found (many dropped slots in a row). */
const MAX_PAGES_READ = 20;
/** Logs whose newest number a process remembers, oldest forgotten first. */
const KNOWN_HEADS_KEPT = 10_000;

interface NumberedSlotsOptions<Fields extends object> {
  collection: string;
  model: string;
  /** The slot's own fields (whose it is, which logo...): set when it is claimed, the same in every version. */
  fields: SchemaDefinition;
  /** A version's value fields (a text), absent from a tombstone and from a retired version: none is required. */
  value: SchemaDefinition;
  /** Fields looked up by equality (`slotsWhere`, `dropWhere`, `removeWhere`, `existsWhere`). */
  indexed: (keyof Fields & string)[];
  /**
   * The sizes of the groups of numbers reads use, smallest first, each a multiple of the one before: the
   * first is a page, the largest is what `all` reads at a time, and a read skips an empty group whole.
   */
  groups: readonly number[];
}

/**
 * What test support needs to bulk-load slots (fixtures and measurements, numbered and keyed by the
 * product's own scheme): a log's newest number, and first versions inserted many at a time. Not part of
 * @logovote/models' entry.
 */
export interface NumberedSlotsBulkLoader {
  newestSeq(log: string): Promise<number>;
  rememberHead(log: string, seq: number): void;
  /** `fields`: the slot's fields and value, and `at` when it is not now. */
  insertFirstVersions(documents: { log: string; seq: number; name: string; fields: Record<string, unknown> }[]): Promise<void>;
}
const bulkLoaders = new WeakMap<object, NumberedSlotsBulkLoader>();

export const numberedSlotsBulkLoader = (slots: object): NumberedSlotsBulkLoader => bulkLoaders.get(slots)!;

/** The stored document of a version. */
type VersionRow = Record<string, unknown> & { seq: number; name: string; version: number; dropped?: boolean };

export function numberedSlots<Fields extends object, Value extends object>(options: NumberedSlotsOptions<Fields>) {
  const { groups } = options;
  const pageSize = groups[0]!;
  const groupFields = groups.map((_, level) => `g${level}`);
  const schema = new Schema(
    {
      _id: { type: String, required: true },
      /** The slot's name's claim: its name on the first version, its own id on later ones (see `claimOf`). */
      claim: { type: String, required: true },
      name: { type: String, required: true },
      log: { type: String, required: true },
      seq: { type: Number, required: true, min: 0 },
      version: { type: Number, required: true, min: 1 },
      /** When the slot was claimed (every version keeps it: a replaced value keeps its place and date). */
      at: { type: Date, required: true },
      dropped: { type: Boolean },
      ...Object.fromEntries(groupFields.map((field) => [field, { type: String }])),
      ...options.fields,
      ...options.value,
    },
    { collection: options.collection, versionKey: false },
  );
  schema.index({ claim: 1 }, { unique: true });
  schema.index({ name: 1 });
  for (const field of [...groupFields, ...options.indexed]) schema.index({ [field]: 1 });
  const SlotModel = primitiveCollection('numberedSlots', options.model, schema);

  const fieldNames = Object.keys(options.fields);
  const valueNames = Object.keys(options.value);
  /** What retiring takes from a version: its read keys and its value. */
  const retiredFields = Object.fromEntries([...groupFields, ...valueNames].map((field) => [field, 1]));
  const projection = Object.fromEntries(
    ['seq', 'name', 'version', 'at', 'dropped', ...fieldNames, ...valueNames].map((field) => [field, 1]),
  );
  const versionId = (log: string, seq: number, version: number) => `${log}|${seq}#${version}`;
  // A name's claim and a version id's cannot be mistaken for each other: a name is claimed by its first
  // version only, and later versions claim something unique of their own (FerretDB has no sparse index).
  const nameClaim = (name: string) => `name:${name}`;
  const claimOf = (name: string, id: string, version: number) => (version === 1 ? nameClaim(name) : `version:${id}`);
  const groupKey = (log: string, level: number, index: number) => `${log}|${level}:${index}`;
  const groupKeys = (log: string, seq: number) =>
    Object.fromEntries(groups.map((size, level) => [groupFields[level]!, groupKey(log, level, Math.floor(seq / size))]));
  const slotExists = async (log: string, seq: number) => (await SlotModel.exists({ _id: versionId(log, seq, 1) })) !== null;

  /** The document of version `version` of slot `seq` of a log. */
  const versionDocument = (log: string, seq: number, version: number, name: string, rest: Record<string, unknown>) => {
    const _id = versionId(log, seq, version);
    return { _id, claim: claimOf(name, _id, version), name, seq, version, log, ...groupKeys(log, seq), ...rest };
  };

  /**
   * The highest slot number known to exist per log, in this process: the newest is searched from there,
   * usually in one lookup. Only a hint: a log's slots are removed only all together (`removeWhere`), which forgets it.
   */
  const knownHeads = new Map<string, number>();
  function rememberHead(log: string, seq: number): void {
    if ((knownHeads.get(log) ?? -1) >= seq) return;
    knownHeads.delete(log);
    knownHeads.set(log, seq);
    if (knownHeads.size > KNOWN_HEADS_KEPT) knownHeads.delete(knownHeads.keys().next().value as string);
  }

  /**
   * The number of a log's newest slot (-1: none), by key lookups only: from the highest number known,
   * forward in doubling steps to a missing slot, then halving between the two.
   */
  async function newestSeq(log: string): Promise<number> {
    let present = knownHeads.get(log) ?? -1;
    let missing = present + 1;
    for (let step = 1; await slotExists(log, missing); step *= 2) {
      present = missing;
      missing = present + step;
    }
    while (missing - present > 1) {
      const middle = Math.floor((present + missing) / 2);
      if (await slotExists(log, middle)) present = middle;
      else missing = middle;
    }
    if (present >= 0) rememberHead(log, present);
    return present;
  }

  /** Every version of the named slot, newest first (one equality lookup; empty when no such slot). */
  async function versionsOf(name: string): Promise<VersionRow[]> {
    const rows = await SlotModel.find({ name }, { ...projection, log: 1 }).lean<VersionRow[]>();
    return rows.sort((a, b) => b.version - a.version);
  }

  /** The newest version of each slot among `rows` (versions of any slots). */
  function newestOfEach(rows: VersionRow[]): VersionRow[] {
    const newest = new Map<string, VersionRow>();
    for (const row of rows) if ((newest.get(row.name)?.version ?? 0) < row.version) newest.set(row.name, row);
    return [...newest.values()];
  }

  const toSlot = (row: VersionRow): Slot<Fields, Value> => {
    const { version: _version, dropped: _dropped, log: _log, _id, ...slot } = row;
    return slot as unknown as Slot<Fields, Value>;
  };

  /**
   * Claims the next free number of the log for a slot named `name` (unique in the collection). 'exists'
   * when a slot of that name is there (dropped or not); 'busy' when other writers kept taking the next
   * number (only under a flood).
   */
  async function claim(log: string, name: string, fields: Fields, value: Value, at = new Date()): Promise<'stored' | 'exists' | 'busy'> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const seq = (await newestSeq(log)) + 1;
      if (await claimOnce(SlotModel, versionDocument(log, seq, 1, name, { at, ...fields, ...value }))) {
        rememberHead(log, seq);
        return 'stored';
      }
      if ((await SlotModel.exists({ claim: nameClaim(name) })) !== null) return 'exists';
    }
    return 'busy';
  }

  /**
   * Writes the named slot's next version: `value`, or a tombstone when it is null. `known` are its versions
   * as just read (newest first). Retires every older version (and a tombstone itself), so reads find the
   * newest only. false when there is no such slot, or when `decide` (given the newest version) says no.
   */
  async function writeVersion(
    name: string,
    value: Value | null,
    known: VersionRow[],
    decide: (newest: VersionRow) => boolean = () => true,
  ): Promise<boolean> {
    let versions = known;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const newest = versions[0];
      if (!newest || !decide(newest)) return false;
      const version = newest.version + 1;
      const fields = Object.fromEntries(fieldNames.filter((field) => field in newest).map((field) => [field, newest[field]]));
      const rest = { at: newest.at, ...fields, ...(value === null ? { dropped: true } : value) };
      if (await claimOnce(SlotModel, versionDocument(newest.log as string, newest.seq, version, name, rest))) {
        await SlotModel.updateMany({ name, version: { $lt: version } }, { $unset: retiredFields });
        // Only once nothing older is left in reads: a stop before this leaves a tombstone, which readers skip.
        if (value === null)
          await SlotModel.updateOne({ _id: versionId(newest.log as string, newest.seq, version) }, { $unset: retiredFields });
        return true;
      }
      versions = await versionsOf(name);
    }
    throw new Error(`numbered slots ${options.collection}/${name} kept changing during ${MAX_ATTEMPTS} attempts`);
  }

  /** Replaces the named slot's value (it keeps its number and date); false when there is no such slot. */
  async function replace(name: string, value: Value): Promise<boolean> {
    return writeVersion(name, value, await versionsOf(name));
  }

  /** Gives the named slot `value`: replaced when the slot is there (dropped or not), else claimed. */
  async function put(log: string, name: string, fields: Fields, value: Value): Promise<'stored' | 'busy'> {
    if (await replace(name, value)) return 'stored';
    const claimed = await claim(log, name, fields, value);
    // Another writer claimed the name meanwhile: this value is the later one.
    if (claimed === 'exists') await replace(name, value);
    return claimed === 'busy' ? 'busy' : 'stored';
  }

  const notDropped = (row: VersionRow) => row.dropped !== true;

  /** Drops the named slot (a tombstone; the number stays taken). false when there is none or it is dropped already. */
  async function drop(name: string): Promise<boolean> {
    return writeVersion(name, null, await versionsOf(name), notDropped);
  }

  /**
   * Drops the slots whose indexed `field` equals `value` and which `which` chooses (given their newest
   * value); resolves with how many it dropped. One lookup when none is to be dropped; repeatable.
   */
  async function dropWhere<Field extends keyof Fields & string>(
    field: Field,
    value: Fields[Field],
    which: (slot: Slot<Fields, Value>) => boolean,
  ): Promise<number> {
    const rows = await SlotModel.find({ [field]: value }, { ...projection, log: 1 }).lean<VersionRow[]>();
    const chosen = newestOfEach(rows).filter((row) => notDropped(row) && which(toSlot(row)));
    let dropped = 0;
    for (const row of chosen) {
      const versions = rows.filter((other) => other.name === row.name).sort((a, b) => b.version - a.version);
      if (await writeVersion(row.name, null, versions, notDropped)) dropped++;
    }
    return dropped;
  }

  /** The named slot's newest value, or undefined when there is none or it is dropped (one equality lookup). */
  async function valueOf(name: string): Promise<Slot<Fields, Value> | undefined> {
    const newest = (await versionsOf(name))[0];
    return newest && notDropped(newest) ? toSlot(newest) : undefined;
  }

  /** The slots not dropped whose indexed `field` equals `value`, with their newest values (one equality lookup). */
  async function slotsWhere<Field extends keyof Fields & string>(field: Field, value: Fields[Field]): Promise<Slot<Fields, Value>[]> {
    const rows = await SlotModel.find({ [field]: value }, projection).lean<VersionRow[]>();
    return newestOfEach(rows).filter(notDropped).map(toSlot);
  }

  /** The kept slots among a group's visible versions, newest first. */
  const keptNewestFirst = (rows: VersionRow[]) =>
    newestOfEach(rows)
      .filter(notDropped)
      .sort((a, b) => b.seq - a.seq);

  /**
   * `below` lowered past every larger group (largest first) that holds no visible version, so the page
   * just below it has some; 0 when none is left. `nonEmpty` remembers, for one read, the groups found to
   * hold versions (each is checked once).
   */
  async function pastEmptyGroups(log: string, below: number, nonEmpty: Set<string>): Promise<number> {
    let top = below;
    search: while (top > 0) {
      for (let level = groups.length - 1; level >= 1; level--) {
        const key = groupKey(log, level, Math.floor((top - 1) / groups[level]!));
        if (nonEmpty.has(key)) continue;
        if ((await SlotModel.exists({ [groupFields[level]!]: key })) !== null) {
          nonEmpty.add(key);
          continue;
        }
        top = Math.floor((top - 1) / groups[level]!) * groups[level]!;
        continue search;
      }
      return top;
    }
    return 0;
  }

  /**
   * A log's slots, newest first: up to `limit` of them numbered below `before` (the newest when absent),
   * and the number to continue below (null: no older slots). Each step reads one page by equality;
   * dropped slots are skipped, so a page may come back shorter than `limit`.
   */
  async function read(log: string, before?: number, limit = pageSize): Promise<{ slots: Slot<Fields, Value>[]; next: number | null }> {
    // A cursor from past the newest slot (made up) starts at the newest.
    const end = (await newestSeq(log)) + 1;
    const nonEmpty = new Set<string>();
    let below = await pastEmptyGroups(log, before === undefined ? end : Math.min(before, end), nonEmpty);
    const slots: Slot<Fields, Value>[] = [];
    for (let pagesRead = 0; below > 0 && pagesRead < MAX_PAGES_READ; pagesRead++) {
      const page = Math.floor((below - 1) / pageSize);
      const rows = await SlotModel.find({ g0: groupKey(log, 0, page) }, projection).lean<VersionRow[]>();
      const shown = keptNewestFirst(rows)
        .filter((row) => row.seq < below)
        .slice(0, limit - slots.length);
      slots.push(...shown.map(toSlot));
      const last = slots.at(-1);
      if (last && slots.length === limit) return { slots, next: last.seq > 0 ? last.seq : null };
      below = await pastEmptyGroups(log, page * pageSize, nonEmpty);
    }
    return { slots, next: below > 0 ? below : null };
  }

  /** Every kept slot of a log, newest first, a largest group per read (exports stream them). */
  async function* all(log: string): AsyncGenerator<Slot<Fields, Value>> {
    const level = groups.length - 1;
    const size = groups[level]!;
    for (let group = Math.floor((await newestSeq(log)) / size); group >= 0; group--) {
      const rows = await SlotModel.find({ [groupFields[level]!]: groupKey(log, level, group) }, projection).lean<VersionRow[]>();
      yield* keptNewestFirst(rows).map(toSlot);
    }
  }

  /**
   * Removes every version of the slots whose indexed `field` equals `value` (their subject is deleted),
   * forgetting the newest numbers of the logs whose key starts with `logPrefix`; resolves with how many
   * documents went. Their logs must go whole: a log's numbers start again from 0.
   */
  async function removeWhere<Field extends keyof Fields & string>(field: Field, value: Fields[Field], logPrefix: string): Promise<number> {
    for (const log of knownHeads.keys()) if (log.startsWith(logPrefix)) knownHeads.delete(log);
    return (await SlotModel.deleteMany({ [field]: value })).deletedCount;
  }

  /** Whether any version of any slot has `field` equal to `value` (one indexed existence check). */
  const existsWhere = async <Field extends keyof Fields & string>(field: Field, value: Fields[Field]): Promise<boolean> =>
    (await SlotModel.exists({ [field]: value })) !== null;

  const slotOperations = { claim, put, replace, drop, dropWhere, valueOf, slotsWhere, read, all, newestSeq, removeWhere, existsWhere };
  bulkLoaders.set(slotOperations, {
    newestSeq,
    rememberHead,
    insertFirstVersions: async (documents) => {
      await SlotModel.insertMany(
        documents.map(({ log, seq, name, fields }) => versionDocument(log, seq, 1, name, { at: new Date(), ...fields })),
        { ordered: false },
      );
    },
  });
  return slotOperations;
}
