export * from './poll';
export * from './vote';
export * from './vote-ledger';
export * from './vote-reason';
export * from './voter-cookie';
export { isDuplicateKey, ledgerEntryId } from './tally-ledger';
export * from './poll-list';
export * from './poll-contact';
export { runOnce } from './migrations';
