import { readActivePoll, type Poll } from './poll';
import type { PollStatus } from './poll-status';
import { numberedSlots } from './store/numbered-slots';
import { exactTally } from './store/tally';

/**
 * The admin list of polls, newest first, read a page at a time with equality lookups only: FerretDB
 * sorts, limits and compares ranges in Go after fetching every row, so a sorted page of 10 000 polls
 * would read all of them. Instead each poll takes the next free number of one log of numbered slots
 * (./store/numbered-slots), named by its id, when it is created, and its slot is dropped when it is
 * deleted. Numbers are grouped in pages of LIST_PAGE_SIZE, blocks of LIST_PAGES_PER_BLOCK pages and
 * volumes of LIST_BLOCKS_PER_VOLUME blocks: a page is one equality query, and a read passes over each
 * group left empty by deleted polls with one existence check, from the largest down, so however many
 * polls were deleted, the first page is full whenever enough polls exist.
 *
 * The number of polls is an exact tally (./store/tally): each poll a member, counted while 'listed'. The sessions service writes all of it.
 */
const LIST_PAGE_SIZE = 20;
const LIST_PAGES_PER_BLOCK = 20;
const LIST_BLOCKS_PER_VOLUME = 20;

/** The one log every poll is listed in. */
export const POLL_LIST_LOG = 'polls';

export const pollListSlots = numberedSlots<Record<never, never>, Record<never, never>>({
  collection: 'poll_list',
  model: 'PollListEntry',
  fields: {},
  value: {},
  indexed: [],
  groups: [LIST_PAGE_SIZE, LIST_PAGE_SIZE * LIST_PAGES_PER_BLOCK, LIST_PAGE_SIZE * LIST_PAGES_PER_BLOCK * LIST_BLOCKS_PER_VOLUME],
});

/** The number of listed polls: one member per poll, counted while its value is LISTED (the sessions service folds it). */
export const pollCount = exactTally({ revisions: 'poll_ledger', steps: 'poll_tallies', model: 'PollCount' });
/** The tally every listed poll counts in, and the value it counts as. */
const ALL_POLLS = 'polls';
const LISTED = 'listed';

/** Lists a new poll (before it turns active: an entry whose poll never does is skipped); listed again, it keeps its number. */
export async function listPoll(pollId: string): Promise<void> {
  const counted = await pollCount.head(pollId);
  if (counted.value !== LISTED)
    await pollCount.append({ tally: ALL_POLLS, member: pollId, rev: counted.rev + 1, from: counted.value, to: LISTED });
  // 'busy' only while many polls are created at the same moment: their numbers are taken, try the next.
  while ((await pollListSlots.put(POLL_LIST_LOG, pollId, {}, {})) === 'busy');
}

/** Takes a deleted poll out of the count (repeatable: a second call finds it out already). */
export async function unlistPoll(pollId: string): Promise<void> {
  const counted = await pollCount.head(pollId);
  if (counted.value === LISTED) await pollCount.append({ tally: ALL_POLLS, member: pollId, rev: counted.rev + 1, from: LISTED, to: null });
  await pollListSlots.drop(pollId);
}

/** How many polls are listed (created and not deleted). */
export async function countListedPolls(): Promise<number> {
  return (await pollCount.readCounts(ALL_POLLS)).get(LISTED) ?? 0;
}

/** List reads one request makes at most: a run of polls being created or deleted ends a page early, with a cursor to go on. */
const MAX_READS = 10;

/**
 * Up to `limit` active polls listed before list number `before` (the newest when absent), newest first,
 * and the cursor for the next ones (absent when none is left).
 */
export async function listedPolls(options: {
  before?: number;
  limit: number;
}): Promise<{ polls: { poll: Poll; status: PollStatus }[]; next?: number }> {
  const polls: { poll: Poll; status: PollStatus }[] = [];
  let cursor: number | null | undefined = options.before;
  for (let reads = 0; polls.length < options.limit && cursor !== null && reads < MAX_READS; reads++) {
    const { slots, next } = await pollListSlots.read(POLL_LIST_LOG, cursor, options.limit - polls.length);
    const found = await Promise.all(slots.map((slot) => readActivePoll(slot.name)));
    polls.push(...found.filter((entry): entry is { poll: Poll; status: PollStatus } => entry !== null));
    cursor = next;
  }
  return typeof cursor === 'number' ? { polls, next: cursor } : { polls };
}
