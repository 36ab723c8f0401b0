import { exactTally } from './store/tally';

/**
 * The votes of every poll, counted per logo (docs/vote-counts.md): an exact tally per poll whose members
 * are the poll's voters and whose values are logo ids. The votes service writes and folds it.
 */
export const voteLedger = exactTally({ revisions: 'vote_ledger', steps: 'vote_tallies', model: 'Vote' });
