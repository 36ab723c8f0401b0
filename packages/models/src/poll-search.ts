import { Schema, model } from 'mongoose';
import { claimAll } from './store/claim-once';

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
export const PollSearchTermModel = model('PollSearchTerm', searchTermSchema);

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
  await PollSearchTermModel.deleteMany({ pollId });
}

/**
 * The ids of polls found by every word of `query` (each word as a prefix), newest first, at most `limit`,
 * and whether more match. Every word's entries are read at once, by equality, each at most `candidates`;
 * the word with the fewest is the base, and each other word read whole filters it in memory. A word with
 * more than `candidates` entries (a word in most polls) is checked by key instead, newest candidate first,
 * a batch at a time, until `limit` and one more are found: so a search costs one capped read per word and
 * about `limit` key lookups, whatever the number of polls.
 */
export async function searchPolls(
  query: string,
  options: { limit: number; candidates: number },
): Promise<{ pollIds: string[]; more: boolean }> {
  const words = [...new Set(searchWords(query))];
  if (words.length === 0) return { pollIds: [], more: false };
  const reads = await Promise.all(
    words.map(async (word) => {
      const entries = await PollSearchTermModel.find({ term: word }, { pollId: 1, at: 1 })
        .limit(options.candidates + 1)
        .lean();
      return { word, entries: entries.slice(0, options.candidates), whole: entries.length <= options.candidates };
    }),
  );
  reads.sort((a, b) => a.entries.length - b.entries.length);
  const [base, ...others] = reads as [(typeof reads)[0], ...typeof reads];
  let candidates = base.entries;
  for (const other of others.filter((read) => read.whole)) {
    const ids = new Set(other.entries.map((entry) => entry.pollId));
    candidates = candidates.filter((entry) => ids.has(entry.pollId));
  }
  candidates.sort((a, b) => b.at - a.at);
  const checkedByKey = others.filter((read) => !read.whole).map((read) => read.word);
  const found: typeof candidates = [];
  for (let next = 0; next < candidates.length && found.length <= options.limit; next += options.limit + 1) {
    const batch = candidates.slice(next, next + options.limit + 1);
    const hits = await Promise.all(
      batch.map(async (entry) =>
        (await Promise.all(checkedByKey.map((word) => PollSearchTermModel.exists({ _id: `${word}|${entry.pollId}` })))).every(Boolean),
      ),
    );
    found.push(...batch.filter((_, index) => hits[index]));
  }
  return {
    pollIds: found.slice(0, options.limit).map((entry) => entry.pollId),
    more: found.length > options.limit || !base.whole,
  };
}
