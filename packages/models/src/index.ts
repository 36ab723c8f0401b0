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
export {
  VOTER_WORDS_FIELDS,
  VoteReasonModel,
  EXPORT_CHUNK,
  reasonVoteKey,
  insertReason,
  replaceReason,
  reasonOf,
  dropReasons,
  readReasons,
  allReasons,
  deleteReasons,
  hasReasons,
  type ReasonExtra,
  type NewReason,
  type StoredReason,
} from './vote-reason';
export {
  LogoNoteModel,
  putNote,
  removeNote,
  notesOfVoter,
  readNotes,
  allNotes,
  deleteNotes,
  hasNotes,
  type NoteExtra,
  type NewNote,
  type StoredNote,
} from './logo-note';
export {
  numberedLog,
  indexNumberedSlots,
  NUMBERED_SLOT_FIELDS,
  type NumberedLog,
  type NumberedSlot,
  type NumberedLogOptions,
  type LogCollection,
  type LogEntry,
} from './store/numbered-log';
export * from './voter-cookie';
export * from './poll-list';
export * from './poll-contact';
export * from './vote-signals';
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
