export * from './poll';
export * from './vote';
