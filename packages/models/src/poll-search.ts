import { Schema } from 'mongoose';
import { primitiveCollection } from './store/collections';
import { listedPolls } from './poll-list';
import { claimAll, claimOnce, removeClaims } from './store/claim-once';

/**
 * The admin's search of polls by the words of their question and their logos' names (docs/admin.md,
 * "Search"). FerretDB answers quickly only an equality filter PostgreSQL has an index for; a regular
 * expression over the questions reads every poll. So each poll writes, when it is created, one entry per
 * search term it can be found by: every prefix (SEARCH_TERM_MIN to SEARCH_TERM_MAX characters) of every
 * word of its question, its logos' names and their file names, normalised (lower case, accents removed).
 * A search reads the entries of one term by equality, with a limit, so what it costs depends on what it
 * finds, not on how many polls are stored. The entries go with the poll (`unindexPollForSearch`).
 */
export const SEARCH_TERM_MIN = 2;
/** Longer words are indexed and searched by their first SEARCH_TERM_MAX characters. */
export const SEARCH_TERM_MAX = 16;

const searchTermSchema = new Schema(
  {
    /** `<term>|<pollId>`: a poll is entered once per term however often the term occurs in it. */
    _id: { type: String, required: true },
    term: { type: String, required: true },
    pollId: { type: String, required: true },
    /** The poll's creation time (ms): matches are shown newest first. */
    at: { type: Number, required: true },
  },
  { collection: 'poll_search_terms', versionKey: false },
);
searchTermSchema.index({ term: 1 });
searchTermSchema.index({ pollId: 1 });
export const PollSearchTermModel = primitiveCollection('claimOnce', 'PollSearchTerm', searchTermSchema);

/**
 * Terms found to have more than a search's cap of entries. FerretDB hands PostgreSQL a filter but not the
 * limit, so reading such a term sends every one of its entries (all the polls' at 100 000 polls): a search
 * reads a term by equality only while it is not marked here, and checks a marked one by key instead. A
 * claim: the first search that finds a term over the cap marks it, once and for good (a term only grows
 * with the polls; after mass deletions a marked term is merely checked the slower way).
 */
const commonTermSchema = new Schema(
  { _id: { type: String, required: true } },
  { collection: 'poll_search_common_terms', versionKey: false },
);
const CommonSearchTermModel = primitiveCollection('claimOnce', 'CommonSearchTerm', commonTermSchema);

/** The words of `text` as a search sees them: lower case, without accents, split at anything that is not a letter or a digit. */
export function searchWords(text: string): string[] {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return (plain.match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((word) => word.length >= SEARCH_TERM_MIN)
    .map((word) => word.slice(0, SEARCH_TERM_MAX));
}

/** Every term a poll with these texts is found by: each word's prefixes of SEARCH_TERM_MIN characters and more. */
export function searchTermsOf(texts: readonly string[]): Set<string> {
  const terms = new Set<string>();
  for (const word of texts.flatMap(searchWords)) {
    for (let length = SEARCH_TERM_MIN; length <= word.length; length++) terms.add(word.slice(0, length));
  }
  return terms;
}

/** What a poll is found by: its question, and each logo's name and file name (without the extension). */
export interface SearchablePoll {
  _id: string;
  createdAt: Date;
  feedbackPrompt?: string | null;
  logos: readonly { name?: string | null; originalName: string }[];
}

const textsOf = (poll: SearchablePoll) => [
  poll.feedbackPrompt ?? '',
  ...poll.logos.flatMap((logo) => [logo.name ?? '', logo.originalName.replace(/\.[^.]*$/, '')]),
];

/** The search entries of a poll, as written. */
export function searchEntriesOf(poll: SearchablePoll) {
  const at = poll.createdAt.getTime();
  return [...searchTermsOf(textsOf(poll))].map((term) => ({ _id: `${term}|${poll._id}`, term, pollId: poll._id, at }));
}

/** Makes a poll findable by its terms (repeatable: entries already there are kept). */
export async function indexPollForSearch(poll: SearchablePoll): Promise<void> {
  await claimAll(PollSearchTermModel, searchEntriesOf(poll));
}

/** Removes a poll's search entries (repeatable). */
export async function unindexPollForSearch(pollId: string): Promise<void> {
  await removeClaims(PollSearchTermModel, { pollId });
}

/** The newest polls a search of common words alone looks through at most. */
const SEARCH_NEWEST_SCANNED = 500;

/**
 * The ids of polls found by every word of `query` (each word as a prefix), newest first, at most `limit`,
 * and whether more match. Each word not marked common is read by equality, at most `candidates` entries
 * (a word over that is marked common); the word read whole with the fewest entries is the base, the other
 * whole words filter it in memory, and common words are checked by key, newest candidate first, a batch at
 * a time, until `limit` and one more are found. A search of common words alone goes through the newest
 * polls (at most SEARCH_NEWEST_SCANNED) and matches their own words. So no read grows with the polls stored.
 */
export async function searchPolls(
  query: string,
  options: { limit: number; candidates: number },
): Promise<{ pollIds: string[]; more: boolean }> {
  const words = [...new Set(searchWords(query))];
  if (words.length === 0) return { pollIds: [], more: false };
  const marked = await Promise.all(words.map((word) => CommonSearchTermModel.exists({ _id: word })));
  const reads = await Promise.all(
    words.map(async (word, index) => {
      if (marked[index]) return { word, entries: [], whole: false };
      const entries = await PollSearchTermModel.find({ term: word }, { pollId: 1, at: 1 })
        .limit(options.candidates + 1)
        .lean();
      const whole = entries.length <= options.candidates;
      if (!whole) await claimOnce(CommonSearchTermModel, { _id: word });
      return { word, entries, whole };
    }),
  );
  const wholeReads = reads.filter((read) => read.whole).sort((a, b) => a.entries.length - b.entries.length);
  const common = reads.filter((read) => !read.whole).map((read) => read.word);
  const [base, ...others] = wholeReads;
  if (base === undefined) return searchNewestPolls(common, options.limit);
  let candidates = base.entries;
  for (const other of others) {
    const ids = new Set(other.entries.map((entry) => entry.pollId));
    candidates = candidates.filter((entry) => ids.has(entry.pollId));
  }
  candidates.sort((a, b) => b.at - a.at);
  const found: typeof candidates = [];
  for (let next = 0; next < candidates.length && found.length <= options.limit; next += options.limit + 1) {
    const batch = candidates.slice(next, next + options.limit + 1);
    const hits = await Promise.all(
      batch.map(async (entry) =>
        (await Promise.all(common.map((word) => PollSearchTermModel.exists({ _id: `${word}|${entry.pollId}` })))).every(Boolean),
      ),
    );
    found.push(...batch.filter((_, index) => hits[index]));
  }
  return { pollIds: found.slice(0, options.limit).map((entry) => entry.pollId), more: found.length > options.limit };
}

/** The newest polls (of at most SEARCH_NEWEST_SCANNED) that have every word, matched on their own texts. */
async function searchNewestPolls(words: string[], limit: number): Promise<{ pollIds: string[]; more: boolean }> {
  const pollIds: string[] = [];
  let before: number | undefined;
  for (let scanned = 0; pollIds.length <= limit && scanned < SEARCH_NEWEST_SCANNED;) {
    const page = await listedPolls({ before, limit: limit + 1 });
    for (const { poll } of page.polls) {
      const terms = searchTermsOf(textsOf(poll));
      if (words.every((word) => terms.has(word))) pollIds.push(poll._id);
    }
    scanned += page.polls.length;
    if (page.next === undefined) return { pollIds: pollIds.slice(0, limit), more: pollIds.length > limit };
    before = page.next;
  }
  return { pollIds: pollIds.slice(0, limit), more: true };
}
