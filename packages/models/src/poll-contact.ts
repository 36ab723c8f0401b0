import { Schema, model } from 'mongoose';
import { isDuplicateKey } from './store/claim-once';

/**
 * What the notify service knows of a poll's creator: the address the links last went to, and when
 * the creator last asked for them (activity, for the retention sweep). The notify service writes it;
 * the sessions service reads it (the admin's 'Creator Email', retention) and never writes it.
 */
const pollContactSchema = new Schema(
  {
    /** The poll's id. */
    _id: { type: String, required: true },
    /** The address that received the links (absent until a send succeeded). */
    email: { type: String },
    lastActivityAt: { type: Date, required: true },
  },
  { collection: 'poll_contacts', versionKey: false },
);

export const PollContactModel = model('PollContact', pollContactSchema);

/** Records a request for the links (and the address, once they went to it). */
export async function recordNotifyActivity(pollId: string, email?: string, at: Date = new Date()): Promise<void> {
  const update = { $set: { lastActivityAt: at, ...(email === undefined ? {} : { email }) } };
  try {
    await PollContactModel.updateOne({ _id: pollId }, update, { upsert: true });
  } catch (error: unknown) {
    // FerretDB's upsert is a read then an insert: two first requests for one poll can both try to insert.
    if (!isDuplicateKey(error)) throw error;
    await PollContactModel.updateOne({ _id: pollId }, update);
  }
}

export async function readPollContact(pollId: string): Promise<{ email?: string | null; lastActivityAt: Date } | null> {
  return PollContactModel.findById(pollId, { email: 1, lastActivityAt: 1 }).lean();
}
