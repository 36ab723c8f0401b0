import { tallyLedger } from './tally-ledger';

/**
 * The votes of every poll, counted per logo (docs/vote-counts.md): one ledger entry per change of a
 * voter's vote (`pollId` the poll, `voteId` the voter in it, values are logo ids), folded by the votes
 * service, which writes both collections.
 */
const votes = tallyLedger({ entries: 'vote_ledger', tallies: 'vote_tallies', model: 'Vote' });

export const VoteLedgerModel = votes.LedgerModel;
export const VoteTallyModel = votes.TallyModel;
export const appendLedgerEntry = votes.append;
export const appendFoldedLedgerEntries = votes.appendFolded;
export const ledgerEntriesAfter = votes.entriesAfter;
/** Exact votes per logo id of a poll (logos without votes are absent). */
export const readVoteCounts = votes.readCounts;
/** When a poll's votes last changed (null: never voted on). */
export const lastVoteAt = votes.lastChangeAt;
export const hasVoteHistory = votes.hasTally;
export const foldPoll = votes.fold;
export const foldDuePolls = votes.foldDue;
/** Removes a poll's ledger and tallies (with its votes, when the poll is deleted). */
export const deleteVoteHistory = votes.deleteTally;
