export * from './poll';
export * from './vote';
export * from './vote-ledger';
export { isDuplicateKey, ledgerEntryId, tallyLedger, FOLD_AFTER_MS, FOLD_BATCH, type LedgerEntry, type TallyLedger } from './tally-ledger';
export * from './poll-list';
