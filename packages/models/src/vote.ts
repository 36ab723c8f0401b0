import { Schema, model, type InferSchemaType } from 'mongoose';
import { ledgerEntryId } from './tally-ledger';
import { deletingPollIds } from './poll';
import { VoterCookieModel } from './voter-cookie';
import { deleteReasons, hasReasons } from './vote-reason';
import { deleteReports, hasReports } from './poll-report';
import { voteLedger } from './vote-ledger';

/**
 * One row per voter per poll, keyed by `voteId` (below): the voter's seat under the per-address cap,
 * and a copy of the newest revision of the voter's vote in the vote ledger (./vote-ledger), which is
 * what counts. The copy can lag behind the ledger (a request that stopped between its two writes,
 * or two requests of one voter racing); readers take the ledger's newer revisions into account.
 *
 * The per-address cap is kept by an index too, because neither FerretDB nor MongoDB without
 * transactions can check "fewer than N rows" and insert atomically (FerretDB even loses concurrent
 * `$inc`s on one document). Each new voter takes one of the numbered seats `ipSlot` 0..cap-1 of its
 * address: the unique {pollId, ipHash, ipSlot} index makes a seat impossible to take twice, so no
 * address ever has more than `cap` voters in a poll, however many requests race.
 */
const voteSchema = new Schema(
  {
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    fingerprint: { type: String, required: true },
    logoId: { type: String, required: true },
    /** Salted hash of the voter's network address: the address itself is never stored. */
    ipHash: { type: String, required: true },
    /** The seat this voter holds among the voters from the same address (see above). */
    ipSlot: { type: Number, required: true, min: 0 },
    /** The ledger revision `logoId` copies. */
    rev: { type: Number, required: true, min: 1 },
  },
  { collection: 'votes', versionKey: false, timestamps: true },
);
voteSchema.index({ pollId: 1, ipHash: 1, ipSlot: 1 }, { unique: true });
voteSchema.index({ pollId: 1, logoId: 1 });

export type Vote = InferSchemaType<typeof voteSchema>;

/**
 * The key of a voter in a poll, from what identified the voter when it first came: its fingerprint and
 * its network (the first 64 bits of its ipHash), so people who share a device profile on different
 * networks are different voters. It stays the voter's key when its address changes (its voter cookie,
 * see ./voter-cookie, finds it from there).
 */
export const voteId = (pollId: string, fingerprint: string, ipHash: string): string => `${pollId}:${fingerprint}:${ipHash.slice(0, 16)}`;
export const VoteModel = model('Vote', voteSchema);

/** A voter's vote as the ledger has it: its newest revision and logo (null: none). */
export interface CurrentVote {
  rev: number;
  logoId: string | null;
  /** Whether the voter holds a seat (has a vote row). */
  seated: boolean;
}

/** The voter's current vote: the vote row, moved forward by any newer ledger revisions. */
export async function currentVote(id: string): Promise<CurrentVote> {
  const row = await VoteModel.findById(id, { logoId: 1, rev: 1 }).lean();
  const rev = row?.rev ?? 0;
  const head = (await voteLedger.entriesAfter(id, rev)).at(-1);
  if (head) return { rev: head.rev, logoId: head.to, seated: row !== null };
  return { rev, logoId: row ? row.logoId : null, seated: row !== null };
}

/**
 * Brings a vote row up to its newest ledger revision. Repeated until it holds, because on FerretDB an
 * update rewrites the whole row and another request's older copy can land after ours.
 */
export async function syncVoteRow(id: string): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const row = await VoteModel.findById(id, { rev: 1 }).lean();
    if (!row) return;
    const head = (await voteLedger.entriesAfter(id, row.rev)).at(-1);
    if (!head?.to) return;
    await VoteModel.updateOne({ _id: id }, { $set: { logoId: head.to, rev: head.rev } });
  }
}

/** A first vote written by the product's data-access code in bulk (tests' fixtures, the benchmark's load). */
export interface FirstVote {
  pollId: string;
  fingerprint: string;
  logoId: string;
  ipHash: string;
  ipSlot: number;
}

/**
 * Stores first votes with their ledger revisions, as castVote would one by one. `folded` writes them
 * already counted in their polls' tallies, one step per poll, instead of leaving them to the folder
 * (bulk loads of a million votes, which the folder would take revision by revision).
 */
export async function insertFirstVotes(votes: FirstVote[], options: { folded?: boolean } = {}): Promise<void> {
  if (votes.length === 0) return;
  const at = new Date();
  const revision = (vote: FirstVote) => ({
    voteId: voteId(vote.pollId, vote.fingerprint, vote.ipHash),
    rev: 1,
    from: null,
    to: vote.logoId,
  });
  if (options.folded) {
    const byPoll = new Map<string, ReturnType<typeof revision>[]>();
    for (const vote of votes) {
      const entries = byPoll.get(vote.pollId) ?? [];
      entries.push(revision(vote));
      byPoll.set(vote.pollId, entries);
    }
    for (const [pollId, entries] of byPoll) await voteLedger.appendFolded(pollId, entries, at);
  } else {
    await voteLedger.LedgerModel.insertMany(
      votes.map((vote) => {
        const entry = revision(vote);
        return { _id: ledgerEntryId(entry.voteId, 1), pollId: vote.pollId, ...entry, pending: true, at };
      }),
    );
  }
  await VoteModel.insertMany(votes.map((vote) => ({ _id: voteId(vote.pollId, vote.fingerprint, vote.ipHash), ...vote, rev: 1 })));
}

/**
 * The votes service's part of deleting polls: removes the votes, ledger, tallies and reasons of every poll the
 * sessions service marked 'deleting', and their reports (issue 18) (it removes the poll itself once nothing of it is left here).
 * Resolves with the vote rows removed.
 */
export async function purgeVotesOfDeletedPolls(): Promise<number> {
  let removed = 0;
  for (const pollId of await deletingPollIds()) {
    removed += (await VoteModel.deleteMany({ pollId })).deletedCount;
    await VoterCookieModel.deleteMany({ pollId });
    await voteLedger.deleteTally(pollId);
    await deleteReasons(pollId);
    await deleteReports(pollId);
  }
  return removed;
}

/** Whether any vote data of a poll is left (the sessions service waits for none before removing the poll). */
export async function hasVoteData(pollId: string): Promise<boolean> {
  return (
    (await VoteModel.exists({ pollId })) !== null ||
    (await VoterCookieModel.exists({ pollId })) !== null ||
    (await voteLedger.hasTally(pollId)) ||
    (await hasReasons(pollId)) ||
    (await hasReports(pollId))
  );
}

/** How many vote revisions the folder has still to count, over all polls (the benchmark waits for none). */
export async function countPendingVotes(): Promise<number> {
  return voteLedger.LedgerModel.countDocuments({ pending: true });
}
