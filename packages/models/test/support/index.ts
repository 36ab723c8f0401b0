/**
 * Test support for @logovote/models (`@logovote/models/test-support`): bulk fixtures written by the
 * product's own key schemes, for tests and the benchmark's loads, and the stored documents of a
 * collection for tests that look under a primitive. Never imported by product code.
 */
import mongoose, { type Model } from 'mongoose';
import { VoterSeatModel, seatRow, voterKeyOf } from '../../src/vote';
import { voteLedger } from '../../src/vote-ledger';
import { tallyBulkLoader, revisionId, type ExactTally, type Revision } from '../../src/store/tally';
import { numberedLogBulkLoader } from '../../src/store/numbered-log';
import { logoLog as reasonsLog, reasonFields, reasonLog, type NewReason } from '../../src/vote-reason';
import { logoLog as notesLog, noteFields, noteLog, type NewNote } from '../../src/logo-note';
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
 * Stores entries of a numbered log in bulk, numbered after its newest, in the order given (oldest first),
 * by the product's own key scheme. Not for use beside live writers.
 */
async function appendInBulk(log: object, name: string, documents: Record<string, unknown>[]): Promise<void> {
  const loader = numberedLogBulkLoader(log);
  let seq = await loader.newestSeq(name);
  for (let start = 0; start < documents.length; start += BATCH) {
    await loader.model.insertMany(
      documents.slice(start, start + BATCH).map((fields) => ({ ...fields, ...loader.slotKeys(name, (seq += 1)) })),
    );
  }
  if (seq >= 0) loader.rememberHead(name, seq);
}

/** Stores reasons of one logo in bulk (see appendInBulk). */
export async function insertReasonsInBulk(reasons: (NewReason & { at?: Date })[]): Promise<void> {
  const first = reasons[0];
  if (!first) return;
  await appendInBulk(
    reasonLog,
    reasonsLog(first.pollId, first.logoId),
    reasons.map((reason) => reasonFields({ ...reason, pollId: first.pollId, logoId: first.logoId }, reason.at)),
  );
}

/** Stores notes of one logo in bulk (see appendInBulk). */
export async function insertNotesInBulk(notes: (NewNote & { at?: Date })[]): Promise<void> {
  const first = notes[0];
  if (!first) return;
  await appendInBulk(
    noteLog,
    notesLog(first.pollId, first.logoId),
    notes.map((note) => noteFields({ ...note, pollId: first.pollId, logoId: first.logoId }, note.at)),
  );
}

/** The number of a logo's newest reason slot (-1: none). */
export const newestReasonSeq = (pollId: string, logoId: string): Promise<number> => reasonLog.newestSeq(reasonsLog(pollId, logoId));

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
