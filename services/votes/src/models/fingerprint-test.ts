import { Schema, model } from 'mongoose';

/**
 * The fingerprint test tool's own collections. They share nothing with polls and votes: a test
 * session id is never a poll id, and test votes are never counted anywhere.
 */
const testSessionSchema = new Schema(
  { _id: { type: String, required: true } },
  { collection: 'fingerprint_test_sessions', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);
testSessionSchema.index({ createdAt: -1 });

const testVoteSchema = new Schema(
  {
    sessionId: { type: String, required: true },
    voterFingerprint: { type: String, required: true },
    /** What the tool sent, kept as JSON text so that any keys (`$x`, `a.b`) store safely. */
    testData: { type: String },
  },
  { collection: 'fingerprint_test_votes', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);
testVoteSchema.index({ createdAt: -1 });

export const TestSessionModel = model('FingerprintTestSession', testSessionSchema);
export const TestVoteModel = model('FingerprintTestVote', testVoteSchema);
