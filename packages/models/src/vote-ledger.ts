import { tallyLedger } from './tally-ledger';

/**
 * The votes of every poll, counted per logo (docs/vote-counts.md): one ledger entry per change of a
 * voter's vote (`pollId` the poll, `voteId` the voter in it, values are logo ids), folded by the votes
 * service, which writes both collections.
 */
export const voteLedger = tallyLedger({ entries: 'vote_ledger', tallies: 'vote_tallies', model: 'Vote' });
