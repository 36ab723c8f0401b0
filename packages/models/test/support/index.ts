/**
 * Test support for @logovote/models (`@logovote/models/test-support`): bulk fixtures written by the
 * product's own key schemes, for tests and the benchmark's loads, and the stored documents of a
 * collection for tests that look under a primitive. Never imported by product code.
 */
import mongoose, { type Model } from 'mongoose';
import { VoterSeatModel, seatRow, voterKeyOf } from '../../src/vote';
import { voteLedger } from '../../src/vote-ledger';
import { tallyBulkLoader, revisionId, type ExactTally, type Revision } from '../../src/store/tally';
import { numberedSlotsBulkLoader } from '../../src/store/numbered-slots';
import { logoLog, reasonFields, reasonSlots, reasonVoteKey, type NewReason } from '../../src/vote-reason';
import { noteFields, noteName, noteSlots, type NewNote } from '../../src/logo-note';
import { POLL_LIST_LOG, pollListSlots } from '../../src/poll-list';
import { PollReportModel, reportKey, roundKey, type NewReport } from '../../src/poll-report';
import { markReported } from '../../src/poll-status';

/** The mongoose model stored in `collection`, whichever module made it (tests' look under a primitive). */
export function storedModel<Stored extends object = Record<string, unknown>>(collection: string): Model<Stored> {
  const found = Object.values(mongoose.models).find((model) => model.collection.collectionName === collection);
  if (!found) throw new Error(`no model is stored in ${collection}`);
  return found as unknown as Model<Stored>;
}

const BATCH = 1_000;

/**
 * Writes many members' revisions of one tally already folded, with one step that counts them (bulk loads:
 * fixtures and the benchmark's million votes). Readers see them all at once, when the step is in.
 */
export async function appendFolded(tally: ExactTally, name: string, revisions: Omit<Revision, 'tally'>[], now = new Date()): Promise<void> {
  const loader = tallyBulkLoader(tally);
  await loader.RevisionModel.insertMany(
    revisions.map((revision) => ({ _id: revisionId(revision.member, revision.rev), tally: name, ...revision, at: now })),
  );
  for (;;) {
    const kept = await loader.steps(name);
    // As a fold does: the newest step's revisions stop looking pending before another step is added.
    if (kept[0]) await loader.markFolded(name, kept[0].folded);
    if (await loader.addStep(name, kept, revisions, [], now)) return;
    // another folder took that step: count ours in the next one
  }
}

/** Writes many members' revisions pending, for the folder. */
export async function appendPending(tally: ExactTally, revisions: Revision[], now = new Date()): Promise<void> {
  await tallyBulkLoader(tally).RevisionModel.insertMany(
    revisions.map((revision) => ({
      _id: revisionId(revision.member, revision.rev),
      ...revision,
      pending: true,
      pendingIn: revision.tally,
      at: now,
    })),
  );
}

/** A first vote written in bulk (tests' fixtures, the benchmark's load). */
export interface FirstVote {
  pollId: string;
  fingerprint: string;
  logoId: string;
  ipHash: string;
  seat: number;
}

/**
 * Stores first votes (seats and revisions), as the votes service would one by one. `folded` writes them
 * already counted in their polls' tallies, one step per poll, instead of leaving them to the folder
 * (bulk loads of a million votes, which the folder would take revision by revision).
 */
export async function insertFirstVotes(votes: FirstVote[], options: { folded?: boolean } = {}): Promise<void> {
  if (votes.length === 0) return;
  const at = new Date();
  const revision = (vote: FirstVote) => ({
    tally: vote.pollId,
    member: voterKeyOf(vote.pollId, vote.fingerprint, vote.ipHash),
    rev: 1,
    from: null,
    to: vote.logoId,
  });
  await VoterSeatModel.insertMany(
    votes.map(({ pollId, fingerprint, ipHash, seat }) =>
      seatRow({ voterKey: voterKeyOf(pollId, fingerprint, ipHash), pollId, fingerprint, ipHash, seat }),
    ),
  );
  if (!options.folded) {
    await appendPending(voteLedger, votes.map(revision), at);
    return;
  }
  const byPoll = new Map<string, ReturnType<typeof revision>[]>();
  for (const vote of votes) {
    const revisions = byPoll.get(vote.pollId) ?? [];
    revisions.push(revision(vote));
    byPoll.set(vote.pollId, revisions);
  }
  for (const [pollId, revisions] of byPoll) await appendFolded(voteLedger, pollId, revisions, at);
}

/**
 * Stores slots of one log in bulk, numbered after its newest, in the order given (oldest first), by the
 * product's own key scheme. Not for use beside live writers.
 */
async function claimInBulk(slots: object, log: string, entries: { name: string; fields: Record<string, unknown> }[]): Promise<void> {
  const loader = numberedSlotsBulkLoader(slots);
  let seq = await loader.newestSeq(log);
  for (let start = 0; start < entries.length; start += BATCH) {
    await loader.insertFirstVersions(entries.slice(start, start + BATCH).map((entry) => ({ log, seq: (seq += 1), ...entry })));
  }
  if (seq >= 0) loader.rememberHead(log, seq);
}

/** A voter's words (a reason, a note) as bulk loads give them: of one logo, dated now unless `at` says otherwise. */
type WordsInBulk = { pollId: string; logoId: string; voterKey: string; text: string; at?: Date };

/** Stores a voter's words of one logo in bulk (see claimInBulk): each slot named by `name`, with `fields`. */
async function wordsInBulk<Words extends WordsInBulk>(
  slots: object,
  words: Words[],
  name: (words: Words) => string,
  fields: (words: Words) => object,
): Promise<void> {
  const first = words[0];
  if (!first) return;
  await claimInBulk(
    slots,
    logoLog(first.pollId, first.logoId),
    words.map((entry) => {
      const ofLogo = { ...entry, pollId: first.pollId, logoId: first.logoId };
      return { name: name(ofLogo), fields: { ...fields(ofLogo), text: entry.text, ...(entry.at ? { at: entry.at } : {}) } };
    }),
  );
}

/** Stores reasons of one logo in bulk (see claimInBulk). */
export const insertReasonsInBulk = (reasons: (NewReason & { at?: Date })[]): Promise<void> =>
  wordsInBulk(reasonSlots, reasons, (reason) => reasonVoteKey(reason.voterKey, reason.rev), reasonFields);

/** Stores notes of one logo in bulk (see claimInBulk). */
export const insertNotesInBulk = (notes: (NewNote & { at?: Date })[]): Promise<void> =>
  wordsInBulk(noteSlots, notes, (note) => noteName(note.voterKey, note.logoId), noteFields);

/** Lists polls in bulk in the admin list, the last given newest (see claimInBulk; their count is not changed). */
export async function listPollsInBulk(pollIds: string[]): Promise<void> {
  await claimInBulk(
    pollListSlots,
    POLL_LIST_LOG,
    pollIds.map((pollId) => ({ name: pollId, fields: {} })),
  );
}

/**
 * Makes new polls active in bulk (the benchmark's loads): each poll's status gets its first version, active,
 * under the versioned value's id scheme (`<key>#<seq, 10 digits>`, src/store/versioned-value.ts). Only for
 * polls without a status.
 */
export async function activatePollsInBulk(pollIds: string[], at: Date = new Date()): Promise<void> {
  const first = (pollId: string) => ({
    _id: `${pollId}#${'1'.padStart(10, '0')}`,
    key: pollId,
    owner: pollId,
    seq: 1,
    at,
    state: 'active',
    paymentPlan: 'free',
    lastActivityAt: at,
    closed: false,
    closedAt: null,
    round: 0,
    hidden: false,
    reportedAt: null,
  });
  await storedModel('poll_status').collection.insertMany(pollIds.map(first) as never[], { ordered: false });
}

/** The number of a logo's newest reason slot (-1: none). */
export const newestReasonSeq = (pollId: string, logoId: string): Promise<number> => reasonSlots.newestSeq(logoLog(pollId, logoId));

/**
 * Stores reports in bulk, marking their rounds reported, by the product's own key scheme: not for use
 * beside live reporting (no threshold is checked).
 */
export async function insertReportsInBulk(reports: NewReport[]): Promise<void> {
  const stamped = reports.map((report) => ({ ...report, at: report.at ?? new Date() }));
  for (let start = 0; start < stamped.length; start += BATCH) {
    await PollReportModel.insertMany(
      stamped.slice(start, start + BATCH).map((report) => ({
        _id: reportKey(report.pollId, report.round, report.ipHash),
        pollId: report.pollId,
        round: roundKey(report.pollId, report.round),
        category: report.category,
        ...(report.note ? { note: report.note } : {}),
        at: report.at,
      })),
    );
  }
  const rounds = new Map(stamped.map((report) => [roundKey(report.pollId, report.round), report]));
  for (const report of rounds.values()) await markReported(report.pollId, report.round, report.at);
}
