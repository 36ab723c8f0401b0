import { Schema, model } from 'mongoose';
import { REASONS_PAGE_SIZE } from '@logovote/contracts';
import { claimOnce } from './store/claim-once';

/**
 * Voters' one-line reasons for their votes (docs/reasons.md), written by the votes service.
 *
 * Each logo of a poll numbers its reasons 0, 1, 2, ... in order of arrival: a reason is an insert-only
 * slot keyed `<pollId>|<logoId>|<seq>`, so two reasons racing for one number are decided by the unique
 * key, never by a read-modify-write. A slot is only written once the one below it exists, so the slots
 * of a logo are always 0..head without a gap. Newest first is then read by equality lookups alone (all
 * FerretDB sends to PostgreSQL): each slot names its page of REASONS_PAGE_SIZE numbers (`page`) and its
 * chunk of EXPORT_CHUNK numbers (`chunk`, for the export), and the head is found by key lookups.
 *
 * A reason explains one revision of the voter's vote (`vote` = `<voteId>#<rev>`, unique: one reason per
 * revision; an edit replaces its text in place). When the vote changes, the reason is dropped: its text is removed and the slot stays
 * behind, empty, to keep the numbering whole. Everything goes with the poll.
 */
const voteReasonSchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    logoId: { type: String, required: true },
    seq: { type: Number, required: true, min: 0 },
    page: { type: String, required: true },
    chunk: { type: String, required: true },
    vote: { type: String, required: true },
    voteId: { type: String, required: true },
    rev: { type: Number, required: true, min: 0 },
    /** The reason, profanity masked; absent once dropped. */
    text: { type: String },
    at: { type: Date, required: true, default: () => new Date() },
  },
  { collection: 'vote_reasons', versionKey: false },
);
voteReasonSchema.index({ page: 1 });
voteReasonSchema.index({ chunk: 1 });
voteReasonSchema.index({ vote: 1 }, { unique: true });
voteReasonSchema.index({ voteId: 1 });
voteReasonSchema.index({ pollId: 1 });
export const VoteReasonModel = model('VoteReason', voteReasonSchema);

/** Reason numbers per export read: one equality lookup returns at most this many. */
export const EXPORT_CHUNK = 1_000;

const logoKey = (pollId: string, logoId: string) => `${pollId}|${logoId}`;
const slotId = (pollId: string, logoId: string, seq: number) => `${logoKey(pollId, logoId)}|${seq}`;
const pageKey = (pollId: string, logoId: string, page: number) => `${logoKey(pollId, logoId)}|p${page}`;
const chunkKey = (pollId: string, logoId: string, chunk: number) => `${logoKey(pollId, logoId)}|c${chunk}`;
export const reasonVoteKey = (voteId: string, rev: number) => `${voteId}#${rev}`;

const slotExists = async (pollId: string, logoId: string, seq: number) =>
  (await VoteReasonModel.exists({ _id: slotId(pollId, logoId, seq) })) !== null;

/**
 * The highest slot number known to exist per logo, in this process: the head is searched from there,
 * usually in one lookup. Only a hint: slots are never removed while their poll lives, so a number once
 * seen stays valid. Bounded, oldest forgotten first.
 */
const knownHeads = new Map<string, number>();
const KNOWN_HEADS_KEPT = 10_000;
function rememberHead(key: string, seq: number): void {
  if ((knownHeads.get(key) ?? -1) >= seq) return;
  knownHeads.delete(key);
  knownHeads.set(key, seq);
  if (knownHeads.size > KNOWN_HEADS_KEPT) knownHeads.delete(knownHeads.keys().next().value as string);
}

/**
 * The number of a logo's newest reason slot (-1: none), by key lookups only: from the highest number
 * known, forward in doubling steps to a missing slot, then halving between the two. O(log n) lookups the
 * first time (34 for 100 000 reasons), one when the hint is current.
 */
export async function newestReasonSeq(pollId: string, logoId: string): Promise<number> {
  const key = logoKey(pollId, logoId);
  let present = knownHeads.get(key) ?? -1;
  let missing = present + 1;
  for (let step = 1; await slotExists(pollId, logoId, missing); step *= 2) {
    present = missing;
    missing = present + step;
  }
  while (missing - present > 1) {
    const middle = Math.floor((present + missing) / 2);
    if (await slotExists(pollId, logoId, middle)) present = middle;
    else missing = middle;
  }
  if (present >= 0) rememberHead(key, present);
  return present;
}

export interface NewReason {
  pollId: string;
  logoId: string;
  voteId: string;
  /** The vote revision the reason explains. */
  rev: number;
  text: string;
}

const slotOf = (reason: NewReason, seq: number, at?: Date) => ({
  _id: slotId(reason.pollId, reason.logoId, seq),
  pollId: reason.pollId,
  logoId: reason.logoId,
  seq,
  page: pageKey(reason.pollId, reason.logoId, Math.floor(seq / REASONS_PAGE_SIZE)),
  chunk: chunkKey(reason.pollId, reason.logoId, Math.floor(seq / EXPORT_CHUNK)),
  vote: reasonVoteKey(reason.voteId, reason.rev),
  voteId: reason.voteId,
  rev: reason.rev,
  text: reason.text,
  ...(at ? { at } : {}),
});

/** How often a reason tries the next number after other reasons for the same logo took it first. */
const MAX_SLOT_ATTEMPTS = 50;

/**
 * Stores a reason in the next free slot of its logo. 'exists' when this vote revision already has one
 * (dropped or not); 'busy' when other reasons kept taking the next number (only under a flood).
 */
export async function insertReason(reason: NewReason): Promise<'stored' | 'exists' | 'busy'> {
  const vote = reasonVoteKey(reason.voteId, reason.rev);
  for (let attempt = 0; attempt < MAX_SLOT_ATTEMPTS; attempt++) {
    const seq = (await newestReasonSeq(reason.pollId, reason.logoId)) + 1;
    if (await claimOnce(VoteReasonModel, slotOf(reason, seq))) {
      rememberHead(logoKey(reason.pollId, reason.logoId), seq);
      return 'stored';
    }
    // Refused: either this revision has its reason, or another reason took the number first.
    if (await VoteReasonModel.exists({ vote })) return 'exists';
  }
  return 'busy';
}

/**
 * Replaces the text of the reason given for one vote revision, in place: it keeps its number and date, so
 * pages and the export keep their order. false when that revision has no reason slot.
 */
export async function replaceReason(voteId: string, rev: number, text: string): Promise<boolean> {
  // One equality update of one document: the last edit wins, nothing is read and written back.
  const result = await VoteReasonModel.updateOne({ vote: reasonVoteKey(voteId, rev) }, { $set: { text } });
  return result.matchedCount > 0;
}

/** The reason given for one vote revision, as stored; undefined when none was given or it was dropped. */
export async function reasonOf(voteId: string, rev: number): Promise<string | undefined> {
  const row = await VoteReasonModel.findOne({ vote: reasonVoteKey(voteId, rev) }, { text: 1 }).lean();
  return typeof row?.text === 'string' ? row.text : undefined;
}

/**
 * Stores reasons of one logo in bulk, numbered after its newest, in the order given (oldest first):
 * fixtures and measurements, written by the product's own key scheme. Not for use beside live voting.
 */
export async function insertReasonsInBulk(reasons: (NewReason & { at?: Date })[]): Promise<void> {
  const first = reasons[0];
  if (!first) return;
  let seq = await newestReasonSeq(first.pollId, first.logoId);
  const BATCH = 1_000;
  for (let start = 0; start < reasons.length; start += BATCH) {
    await VoteReasonModel.insertMany(
      reasons
        .slice(start, start + BATCH)
        .map((reason) => slotOf({ ...reason, pollId: first.pollId, logoId: first.logoId }, (seq += 1), reason.at)),
    );
  }
  rememberHead(logoKey(first.pollId, first.logoId), seq);
}

/**
 * Drops the reasons of a voter's vote revisions up to `throughRev` (the reason explained a choice the
 * voter no longer holds): the text goes, the empty slot stays. Idempotent, so it is safe to repeat.
 */
export async function dropReasons(voteId: string, throughRev: number): Promise<number> {
  // One update: FerretDB looks the voter's few reasons up by `voteId` and applies the rest in Go.
  const result = await VoteReasonModel.updateMany({ voteId, rev: { $lte: throughRev }, text: { $exists: true } }, { $unset: { text: 1 } });
  return result.modifiedCount;
}

export interface StoredReason {
  seq: number;
  text: string;
  at: Date;
}

/** Page reads one request makes at most before answering with what it found (many dropped reasons in a row). */
const MAX_PAGES_READ = 5;

/**
 * A logo's reasons, newest first: up to `limit` of them numbered below `before` (the newest when
 * absent), and the number to continue below (null: no older reasons). Each step reads one page of slot
 * numbers by equality; dropped reasons are skipped, so a page may come back shorter than `limit`.
 */
export async function readReasons(
  pollId: string,
  logoId: string,
  before?: number,
  limit = REASONS_PAGE_SIZE,
): Promise<{ reasons: StoredReason[]; next: number | null }> {
  // A cursor from past the newest reason (made up) starts at the newest.
  const end = (await newestReasonSeq(pollId, logoId)) + 1;
  let below = before === undefined ? end : Math.min(before, end);
  const reasons: StoredReason[] = [];
  for (let pagesRead = 0; below > 0 && pagesRead < MAX_PAGES_READ; pagesRead++) {
    const page = Math.floor((below - 1) / REASONS_PAGE_SIZE);
    const rows = await VoteReasonModel.find({ page: pageKey(pollId, logoId, page) }, { seq: 1, text: 1, at: 1 }).lean();
    const shown = rows
      .filter((row) => row.seq < below && typeof row.text === 'string')
      .sort((a, b) => b.seq - a.seq)
      .slice(0, limit - reasons.length);
    reasons.push(...shown.map((row) => ({ seq: row.seq, text: row.text as string, at: row.at })));
    const last = reasons.at(-1);
    if (last && reasons.length === limit) return { reasons, next: last.seq > 0 ? last.seq : null };
    below = page * REASONS_PAGE_SIZE;
  }
  return { reasons, next: below > 0 ? below : null };
}

/**
 * Every kept reason of a logo, newest first, EXPORT_CHUNK numbers per read (the export streams them).
 */
export async function* allReasons(pollId: string, logoId: string): AsyncGenerator<StoredReason> {
  const newest = await newestReasonSeq(pollId, logoId);
  for (let chunk = Math.floor(newest / EXPORT_CHUNK); chunk >= 0; chunk--) {
    const rows = await VoteReasonModel.find({ chunk: chunkKey(pollId, logoId, chunk) }, { seq: 1, text: 1, at: 1 }).lean();
    rows.sort((a, b) => b.seq - a.seq);
    for (const row of rows) if (typeof row.text === 'string') yield { seq: row.seq, text: row.text, at: row.at };
  }
}

/** Removes a poll's reasons (with its votes, when the poll is deleted). */
export async function deleteReasons(pollId: string): Promise<number> {
  for (const key of knownHeads.keys()) if (key.startsWith(`${pollId}|`)) knownHeads.delete(key);
  return (await VoteReasonModel.deleteMany({ pollId })).deletedCount;
}

export const hasReasons = async (pollId: string): Promise<boolean> => (await VoteReasonModel.exists({ pollId })) !== null;
