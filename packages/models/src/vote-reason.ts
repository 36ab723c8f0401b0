import { Schema, model } from 'mongoose';
import { REASONS_PAGE_SIZE } from '@logovote/contracts';
import { NUMBERED_SLOT_FIELDS, indexNumberedSlots, numberedLog, type LogEntry } from './store/numbered-log';

/** What a voter's words (a reason, a note) store beside the numbered slot: whose, on which logo, through which channel. */
export const VOTER_WORDS_FIELDS = {
  ...NUMBERED_SLOT_FIELDS,
  pollId: { type: String, required: true },
  logoId: { type: String, required: true },
  voterKey: { type: String, required: true },
  /** The channel of the voter's seat (docs/channels.md), '' for the plain link. */
  channel: { type: String },
} as const;

/**
 * Voters' one-line reasons for their votes (docs/reasons.md), written by the votes service.
 *
 * Each logo of a poll is a numbered log of reasons (./store/numbered-log): insert-only slots keyed
 * `<pollId>|<logoId>|<seq>`, numbered in order of arrival without a gap, read newest first by equality
 * lookups alone (pages of REASONS_PAGE_SIZE numbers, export chunks of EXPORT_CHUNK numbers).
 *
 * A reason explains one revision of the voter's vote (`vote` = `<voterKey>#<rev>`, unique: one reason per
 * revision; an edit replaces its text in place). When the vote changes, the reason is dropped: its text is removed and the slot stays
 * behind, empty, to keep the numbering whole. Everything goes with the poll.
 */
const voteReasonSchema = new Schema(
  {
    ...VOTER_WORDS_FIELDS,
    vote: { type: String, required: true },
    rev: { type: Number, required: true, min: 0 },
  },
  { collection: 'vote_reasons', versionKey: false },
);
indexNumberedSlots(voteReasonSchema);
voteReasonSchema.index({ vote: 1 }, { unique: true });
voteReasonSchema.index({ voterKey: 1 });
voteReasonSchema.index({ pollId: 1 });
export const VoteReasonModel = model('VoteReason', voteReasonSchema);

/** Reason numbers per export read: one equality lookup returns at most this many. */
export const EXPORT_CHUNK = 1_000;

/** What a reader gets with each reason beside its text and date. */
export interface ReasonExtra {
  voterKey: string;
  /** The channel the voter came through, '' for the plain link; absent on reasons stored before channels were kept. */
  channel?: string;
}
export const reasonLog = numberedLog<ReasonExtra>(VoteReasonModel, {
  pageSize: REASONS_PAGE_SIZE,
  chunkSize: EXPORT_CHUNK,
  extraFields: ['voterKey', 'channel'],
});

/** Each logo of a poll is one numbered log of reasons. */
export const logoLog = (pollId: string, logoId: string) => `${pollId}|${logoId}`;
export const reasonVoteKey = (voterKey: string, rev: number) => `${voterKey}#${rev}`;

export interface NewReason {
  pollId: string;
  logoId: string;
  voterKey: string;
  /** The vote revision the reason explains. */
  rev: number;
  text: string;
  /** The channel of the voter's seat (docs/channels.md), '' for the plain link; the service always knows it. */
  channel?: string;
}

export const reasonFields = (reason: NewReason, at?: Date) => ({
  pollId: reason.pollId,
  logoId: reason.logoId,
  vote: reasonVoteKey(reason.voterKey, reason.rev),
  voterKey: reason.voterKey,
  rev: reason.rev,
  text: reason.text,
  ...(reason.channel === undefined ? {} : { channel: reason.channel }),
  ...(at ? { at } : {}),
});

/**
 * Stores a reason in the next free slot of its logo. 'exists' when this vote revision already has one
 * (dropped or not); 'busy' when other reasons kept taking the next number (only under a flood).
 */
export async function insertReason(reason: NewReason): Promise<'stored' | 'exists' | 'busy'> {
  const vote = reasonVoteKey(reason.voterKey, reason.rev);
  return reasonLog.append(
    logoLog(reason.pollId, reason.logoId),
    reasonFields(reason),
    async () => (await VoteReasonModel.exists({ vote })) !== null,
  );
}

/**
 * Replaces the text of the reason given for one vote revision, in place: it keeps its number and date, so
 * pages and the export keep their order. false when that revision has no reason slot.
 */
export async function replaceReason(voterKey: string, rev: number, text: string): Promise<boolean> {
  // One equality update of one document: the last edit wins, nothing is read and written back.
  const result = await VoteReasonModel.updateOne({ vote: reasonVoteKey(voterKey, rev) }, { $set: { text } });
  return result.matchedCount > 0;
}

/** The reason given for one vote revision, as stored; undefined when none was given or it was dropped. */
export async function reasonOf(voterKey: string, rev: number): Promise<string | undefined> {
  const row = await VoteReasonModel.findOne({ vote: reasonVoteKey(voterKey, rev) }, { text: 1 }).lean();
  return typeof row?.text === 'string' ? row.text : undefined;
}

/**
 * Drops the reasons of a voter's vote revisions up to `throughRev` (the reason explained a choice the
 * voter no longer holds): the text goes, the empty slot stays. Idempotent, so it is safe to repeat.
 */
export async function dropReasons(voterKey: string, throughRev: number): Promise<number> {
  // One update: FerretDB looks the voter's few reasons up by `voterKey` and applies the rest in Go.
  const result = await VoteReasonModel.updateMany(
    { voterKey, rev: { $lte: throughRev }, text: { $exists: true } },
    { $unset: { text: 1 } },
  );
  return result.modifiedCount;
}

export type StoredReason = LogEntry<ReasonExtra>;

/**
 * A logo's reasons, newest first: up to `limit` of them numbered below `before` (the newest when
 * absent), and the number to continue below (null: no older reasons). Dropped reasons are skipped.
 */
export async function readReasons(
  pollId: string,
  logoId: string,
  before?: number,
  limit = REASONS_PAGE_SIZE,
): Promise<{ reasons: StoredReason[]; next: number | null }> {
  const { entries, next } = await reasonLog.read(logoLog(pollId, logoId), before, limit);
  return { reasons: entries, next };
}

/** Every kept reason of a logo, newest first, EXPORT_CHUNK numbers per read (the export streams them). */
export const allReasons = (pollId: string, logoId: string): AsyncGenerator<StoredReason> => reasonLog.all(logoLog(pollId, logoId));

/** Removes a poll's reasons (with its votes, when the poll is deleted). */
export async function deleteReasons(pollId: string): Promise<number> {
  reasonLog.forget(`${pollId}|`);
  return (await VoteReasonModel.deleteMany({ pollId })).deletedCount;
}

export const hasReasons = async (pollId: string): Promise<boolean> => (await VoteReasonModel.exists({ pollId })) !== null;
