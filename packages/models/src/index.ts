/**
 * @logovote/models' entry: the product's data access. Test support (fixtures, the stores' layouts) is
 * `@logovote/models/test-support` (test/support/).
 */
export { claimOnce, claimAll, isDuplicateKey, removeClaims } from './store/claim-once';
export { exactTally, type ExactTally, type Revision } from './store/tally';
export { versionedValue, type Version } from './store/versioned-value';
export { timeBucketedLog, type Bucket } from './store/time-bucketed-log';
export * from './poll';
export * from './poll-status';
export * from './vote';
export * from './vote-ledger';
export * from './channel-ledger';
export * from './attribute-ledger';
export {
  insertReason,
  replaceReason,
  reasonOf,
  dropReasons,
  readReasons,
  allReasons,
  deleteReasons,
  hasReasons,
  type NewReason,
  type StoredReason,
} from './vote-reason';
export { putNote, removeNote, notesOfVoter, readNotes, allNotes, deleteNotes, hasNotes, type NewNote, type StoredNote } from './logo-note';
export { numberedSlots, type Slot } from './store/numbered-slots';
export { listPoll, unlistPoll, countListedPolls, listedPolls, pollCount } from './poll-list';
export * from './poll-contact';
export * from './vote-signals';
export * from './reason-theme';
export * from './creator-token';
export * from './results-visibility';
export {
  PollReportModel,
  reportKey,
  hasReported,
  insertReport,
  reportsOfRound,
  hideIfReportedEnough,
  deleteReports,
  hasReports,
  type NewReport,
  type StoredReport,
} from './poll-report';
export * from './poll-visibility';
export * from './live-poll';
export * from './logo-file';
export * from './upload-refusal';
export * from './rate-ticket';
export * from './admin-login-failure';
export * from './poll-search';
export { recordAnalyticsEvents, sweepAnalyticsEvents } from './analytics-event';
