import { Schema, model } from 'mongoose';
import { PollModel, activePoll, type Poll } from './poll';
import { claimOnce } from './store/claim-once';
import { exactTally } from './store/tally';

/**
 * The admin list of polls, newest first, read a page at a time with equality lookups only: FerretDB
 * sorts, limits and compares ranges in Go after fetching every row, so a sorted page of 10 000 polls
 * would read all of them. Instead each poll takes the next free list number when it is created, and
 * numbers are grouped in pages of LIST_PAGE_SIZE: a page is one equality query, and the newest number
 * is found with a handful of key lookups. Numbers are never given back (`poll_list` keeps every number
 * taken), so the first free number is always the count of numbers taken plus one.
 *
 * What is read is `poll_list_live`: the same entries, each also naming its block (LIST_PAGES_PER_BLOCK
 * pages) and volume (LIST_BLOCKS_PER_VOLUME blocks), removed when its poll is deleted. A run of deleted
 * polls leaves empty pages, blocks and volumes behind, and the reader passes over each empty group with
 * one indexed existence check, from the largest down: however many polls were deleted, the first page
 * is full whenever enough polls exist.
 *
 * The number of polls is an exact tally (./store/tally): each poll a member, counted while 'listed'. The sessions service writes all of it.
 */
const LIST_PAGE_SIZE = 20;
const LIST_PAGES_PER_BLOCK = 20;
const LIST_BLOCKS_PER_VOLUME = 20;

const listEntrySchema = new Schema(
  {
    _id: { type: Number, required: true, min: 1 },
    page: { type: Number, required: true, min: 0 },
    pollId: { type: String, required: true },
    at: { type: Date, required: true, default: () => new Date() },
  },
  { collection: 'poll_list', versionKey: false },
);
listEntrySchema.index({ page: 1 });
export const PollListModel = model('PollListEntry', listEntrySchema);

/** The list entries of polls not deleted, with their groups (see above). */
const liveEntrySchema = new Schema(
  {
    _id: { type: Number, required: true, min: 1 },
    pollId: { type: String, required: true },
    page: { type: Number, required: true, min: 0 },
    block: { type: Number, required: true, min: 0 },
    volume: { type: Number, required: true, min: 0 },
  },
  { collection: 'poll_list_live', versionKey: false },
);
liveEntrySchema.index({ page: 1 });
liveEntrySchema.index({ block: 1 });
liveEntrySchema.index({ volume: 1 });
liveEntrySchema.index({ pollId: 1 });
export const LivePollListModel = model('LivePollListEntry', liveEntrySchema);

/** The groups of list numbers, largest first: a group without live entries is skipped whole. */
const GROUPS = [
  { field: 'volume', size: LIST_PAGE_SIZE * LIST_PAGES_PER_BLOCK * LIST_BLOCKS_PER_VOLUME },
  { field: 'block', size: LIST_PAGE_SIZE * LIST_PAGES_PER_BLOCK },
  { field: 'page', size: LIST_PAGE_SIZE },
] as const;

const liveEntry = (seq: number, pollId: string) => ({
  _id: seq,
  pollId,
  page: pageOf(seq),
  block: Math.floor(seq / GROUPS[1].size),
  volume: Math.floor(seq / GROUPS[0].size),
});

/** The documents of list number `seq` taken by `pollId`: its `poll_list` entry and its live entry. */
export function listEntriesOf(seq: number, pollId: string) {
  return { taken: { _id: seq, page: pageOf(seq), pollId, at: new Date() }, live: liveEntry(seq, pollId) };
}

/** The number of listed polls: one member per poll, counted while its value is LISTED (the sessions service folds it). */
export const pollCount = exactTally({ revisions: 'poll_ledger', steps: 'poll_tallies', model: 'PollCount' });
/** The tally every listed poll counts in, and the value it counts as. */
const ALL_POLLS = 'polls';
const LISTED = 'listed';

const pageOf = (seq: number) => Math.floor(seq / LIST_PAGE_SIZE);
const taken = async (seq: number) => (await PollListModel.exists({ _id: seq })) !== null;

/** The highest list number known taken in this process: where the search for the next one starts. */
let knownTaken = 0;

/** The first free list number: galloping up from the last one known taken, then halving. */
async function firstFreeNumber(): Promise<number> {
  // The hint must hold for this database (another one in the same process, or one emptied, starts over).
  if (knownTaken > 0 && !(await taken(knownTaken))) knownTaken = 0;
  let low = knownTaken;
  let high = low + 1;
  for (let step = 1; await taken(high); step *= 2) {
    low = high;
    high = low + step;
  }
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (await taken(middle)) low = middle;
    else high = middle;
  }
  knownTaken = Math.max(knownTaken, low);
  return high;
}

/** Lists a new poll (before it turns active: an entry whose poll never does is skipped). */
export async function listPoll(pollId: string): Promise<void> {
  const counted = await pollCount.head(pollId);
  if (counted.value !== LISTED)
    await pollCount.append({ tally: ALL_POLLS, member: pollId, rev: counted.rev + 1, from: counted.value, to: LISTED });
  for (;;) {
    const seq = await firstFreeNumber();
    const entries = listEntriesOf(seq, pollId);
    const claimed = await claimOnce(PollListModel, entries.taken);
    knownTaken = Math.max(knownTaken, seq);
    if (claimed) {
      await claimOnce(LivePollListModel, entries.live);
      return;
    }
  }
}

/** Takes a deleted poll out of the count (repeatable: a second call finds it out already). */
export async function unlistPoll(pollId: string): Promise<void> {
  const counted = await pollCount.head(pollId);
  if (counted.value === LISTED) await pollCount.append({ tally: ALL_POLLS, member: pollId, rev: counted.rev + 1, from: LISTED, to: null });
  await LivePollListModel.deleteMany({ pollId });
}

/** How many polls are listed (created and not deleted). */
export async function countListedPolls(): Promise<number> {
  return (await pollCount.readCounts(ALL_POLLS)).get(LISTED) ?? 0;
}

/** Pages read at most for one request: a run of polls being created or deleted ends a page early, with a cursor to go on. */
const MAX_PAGES_READ = 10;

/**
 * The cursor lowered past every group (volume, block, page) that holds no live entry, so the page just
 * below it has entries; 1 when none is left. `nonEmpty` remembers the groups found to hold entries
 * during one request (each is checked once).
 */
async function pastEmptyGroups(cursor: number, nonEmpty: Set<string>): Promise<number> {
  let top = cursor;
  search: while (top > 1) {
    for (const { field, size } of GROUPS) {
      const group = Math.floor((top - 1) / size);
      const key = `${field}:${group}`;
      if (nonEmpty.has(key)) continue;
      if ((await LivePollListModel.exists({ [field]: group })) !== null) {
        nonEmpty.add(key);
        continue;
      }
      top = group * size;
      continue search;
    }
    return top;
  }
  return 1;
}

/**
 * Up to `limit` active polls listed before list number `before` (the newest when absent), newest first,
 * and the cursor for the next ones (absent when none is left).
 */
export async function listedPolls(options: { before?: number; limit: number }): Promise<{ polls: Poll[]; next?: number }> {
  const end = await firstFreeNumber();
  const nonEmpty = new Set<string>();
  let cursor = await pastEmptyGroups(Math.min(options.before ?? end, end), nonEmpty);
  const polls: Poll[] = [];
  for (let pagesRead = 0; polls.length < options.limit && cursor > 1 && pagesRead < MAX_PAGES_READ; pagesRead++) {
    const page = pageOf(cursor - 1);
    const entries = (await LivePollListModel.find({ page }, { pollId: 1 }).lean())
      .filter((entry) => entry._id < cursor)
      .sort((a, b) => b._id - a._id);
    const found = await Promise.all(entries.map((entry) => PollModel.findOne(activePoll(entry.pollId)).lean<Poll>()));
    let pageDone = true;
    for (const [index, entry] of entries.entries()) {
      if (polls.length === options.limit) {
        pageDone = false;
        break;
      }
      cursor = entry._id;
      const poll = found[index];
      if (poll) polls.push(poll);
    }
    // Every entry of this page is behind us: the next one starts below it, past any empty groups.
    if (pageDone) cursor = await pastEmptyGroups(Math.min(cursor, page * LIST_PAGE_SIZE), nonEmpty);
  }
  return cursor > 1 ? { polls, next: cursor } : { polls };
}
