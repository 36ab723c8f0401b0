import { claimOnce } from './claim-once';

/**
 * Numbered log: short texts of one subject (a logo's reasons, a logo's notes), numbered 0, 1, 2, ... in
 * order of arrival and read newest first a page at a time, on MongoDB and on FerretDB alike.
 *
 * An entry is an insert-only slot keyed `<log>|<seq>`: two entries racing for one number are decided by
 * the unique `_id` (claimOnce), never by `$inc` or a read-modify-write. A slot is only written once the one
 * below it exists, so a log's slots are always 0..newest without a gap, and the newest is found by key
 * lookups alone. Each slot names its page of `pageSize` numbers (`page`) and its chunk of `chunkSize`
 * numbers (`chunk`, for exports): every read is one equality filter on an indexed key, which FerretDB sends
 * to PostgreSQL, and no sort or limit is ever asked of the database.
 *
 * A slot's text may be removed (`$unset`) while the slot stays, so the numbering stays whole; readers skip
 * such slots. Cost: an append is 1 lookup and 1 insert when this process knows the log's newest number,
 * about 34 lookups for 100 000 entries when it does not; a page is 1 to `MAX_PAGES_READ` lookups.
 * Limits: one sequence per log, so writers of one log at the same moment contend for the next number; an
 * append gives up ('busy') after `MAX_SLOT_ATTEMPTS` numbers taken by others.
 */

/** The fields every slot of a numbered log has; a collection adds its own (who wrote it, the channel...). */
export interface NumberedSlot {
  _id: string;
  seq: number;
  page: string;
  chunk: string;
  /** The entry; absent once removed. */
  text?: string | null | undefined;
  at: Date;
}

/**
 * The schema fields of every numbered log's slot, for a collection's mongoose schema (which adds its own),
 * and the indexes its reads need (`indexNumberedSlots`).
 */
export const NUMBERED_SLOT_FIELDS = {
  _id: { type: String, required: true },
  seq: { type: Number, required: true, min: 0 },
  page: { type: String, required: true },
  chunk: { type: String, required: true },
  /** The entry; absent once removed. */
  text: { type: String },
  at: { type: Date, required: true, default: () => new Date() },
} as const;

/** The page and chunk indexes every read of a numbered log uses (equality lookups only). */
export function indexNumberedSlots(schema: { index(fields: Record<string, 1>): unknown }): void {
  schema.index({ page: 1 });
  schema.index({ chunk: 1 });
}

/** An entry as a reader gets it: its number, its text, its date and the collection's own fields. */
export type LogEntry<Extra> = { seq: number; text: string; at: Date } & Extra;

/** How often an append tries the next number after other writers of the same log took it first. */
const MAX_SLOT_ATTEMPTS = 50;
/** Page reads one read makes at most before answering with what it found (many removed entries in a row). */
const MAX_PAGES_READ = 5;
/** Logs whose newest number a process remembers, oldest forgotten first. */
const KNOWN_HEADS_KEPT = 10_000;

export interface NumberedLogOptions<Extra> {
  pageSize: number;
  chunkSize: number;
  /** The collection's own fields a reader gets with each entry. */
  extraFields: readonly (keyof Extra & string)[];
}

/** What a numbered log needs of its collection's model (any mongoose model of NumberedSlot documents has it). */
export interface LogCollection {
  exists(filter: { _id: string }): PromiseLike<unknown>;
  find(filter: { page: string } | { chunk: string }, projection: Record<string, number>): { lean(): PromiseLike<unknown[]> };
  insertMany(documents: Record<string, unknown>[]): PromiseLike<unknown>;
  create(document: Record<string, unknown>): Promise<unknown>;
}

/**
 * What test support needs to bulk-load a log (fixtures and measurements, numbered by the product's own key
 * scheme): its collection, its newest number and its slot keys. Not part of @logovote/models' entry.
 */
export interface NumberedLogBulkLoader {
  model: LogCollection;
  newestSeq(log: string): Promise<number>;
  slotKeys(log: string, seq: number): { _id: string; seq: number; page: string; chunk: string };
  rememberHead(log: string, seq: number): void;
}
const bulkLoaders = new WeakMap<object, NumberedLogBulkLoader>();

export function numberedLog<Extra extends object>(model: LogCollection, options: NumberedLogOptions<Extra>) {
  const { pageSize, chunkSize } = options;
  const slotId = (log: string, seq: number) => `${log}|${seq}`;
  const pageKey = (log: string, page: number) => `${log}|p${page}`;
  const chunkKey = (log: string, chunk: number) => `${log}|c${chunk}`;
  const projection = Object.fromEntries(['seq', 'text', 'at', ...options.extraFields].map((field) => [field, 1]));
  const slotExists = async (log: string, seq: number) => (await model.exists({ _id: slotId(log, seq) })) !== null;

  /**
   * The highest slot number known to exist per log, in this process: the newest is searched from there,
   * usually in one lookup. Only a hint: slots are never removed while their log lives.
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

  /** The keys of slot `seq` of a log, for a document of the collection. */
  const slotKeys = (log: string, seq: number) => ({
    _id: slotId(log, seq),
    seq,
    page: pageKey(log, Math.floor(seq / pageSize)),
    chunk: chunkKey(log, Math.floor(seq / chunkSize)),
  });

  /**
   * Stores `fields` in the next free slot of the log. A refused insert is either another writer that took
   * the number first (try the next) or a unique key of the collection's own that `taken` recognises
   * ('exists'); 'busy' when other writers kept taking the next number (only under a flood).
   */
  async function append(
    log: string,
    fields: Record<string, unknown>,
    taken: () => Promise<boolean>,
  ): Promise<'stored' | 'exists' | 'busy'> {
    for (let attempt = 0; attempt < MAX_SLOT_ATTEMPTS; attempt++) {
      const seq = (await newestSeq(log)) + 1;
      if (await claimOnce(model, { ...fields, ...slotKeys(log, seq) })) {
        rememberHead(log, seq);
        return 'stored';
      }
      if (await taken()) return 'exists';
    }
    return 'busy';
  }

  const kept = (row: Record<string, unknown>): row is LogEntry<Extra> & Record<string, unknown> => typeof row.text === 'string';

  /**
   * A log's entries, newest first: up to `limit` of them numbered below `before` (the newest when absent),
   * and the number to continue below (null: no older entries). Each step reads one page by equality;
   * removed entries are skipped, so a page may come back shorter than `limit`.
   */
  async function read(log: string, before?: number, limit = pageSize): Promise<{ entries: LogEntry<Extra>[]; next: number | null }> {
    // A cursor from past the newest entry (made up) starts at the newest.
    const end = (await newestSeq(log)) + 1;
    let below = before === undefined ? end : Math.min(before, end);
    const entries: LogEntry<Extra>[] = [];
    for (let pagesRead = 0; below > 0 && pagesRead < MAX_PAGES_READ; pagesRead++) {
      const page = Math.floor((below - 1) / pageSize);
      const rows = (await model.find({ page: pageKey(log, page) }, projection).lean()) as Record<string, unknown>[];
      const shown = rows
        .filter(kept)
        .filter((row) => row.seq < below)
        .sort((a, b) => b.seq - a.seq)
        .slice(0, limit - entries.length);
      entries.push(...shown);
      const last = entries.at(-1);
      if (last && entries.length === limit) return { entries, next: last.seq > 0 ? last.seq : null };
      below = page * pageSize;
    }
    return { entries, next: below > 0 ? below : null };
  }

  /** Every kept entry of a log, newest first, `chunkSize` numbers per read (exports stream them). */
  async function* all(log: string): AsyncGenerator<LogEntry<Extra>> {
    const newest = await newestSeq(log);
    for (let chunk = Math.floor(newest / chunkSize); chunk >= 0; chunk--) {
      const rows = (await model.find({ chunk: chunkKey(log, chunk) }, projection).lean()) as Record<string, unknown>[];
      yield* rows.filter(kept).sort((a, b) => b.seq - a.seq);
    }
  }

  /** Forgets the remembered newest numbers of the logs whose key starts with `prefix` (their slots are being deleted). */
  function forget(prefix: string): void {
    for (const log of knownHeads.keys()) if (log.startsWith(prefix)) knownHeads.delete(log);
  }

  const logOperations = { newestSeq, append, read, all, forget };
  bulkLoaders.set(logOperations, { model, newestSeq, slotKeys, rememberHead });
  return logOperations;
}

export type NumberedLog = ReturnType<typeof numberedLog>;

export const numberedLogBulkLoader = (log: object): NumberedLogBulkLoader => bulkLoaders.get(log)!;
