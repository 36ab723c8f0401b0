export * from './poll';
export * from './vote';
export * from './vote-ledger';
