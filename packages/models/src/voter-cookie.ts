import { Schema } from 'mongoose';
import { primitiveCollection } from './store/collections';
import { claimOnce } from './store/claim-once';

/**
 * Which voter of a poll a browser's voter cookie belongs to (written by the votes service when the
 * browser votes). Only a keyed hash of the cookie is stored, bound to the poll, so the same browser's
 * rows in two polls cannot be linked. Insert-only: one browser may gain a binding per poll, a voter
 * may have several (a private window that voted as the same voter), and a binding never changes.
 */
const voterCookieSchema = new Schema(
  {
    /** `${pollId}:${cookieHash}` */
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    voterKey: { type: String, required: true },
  },
  { collection: 'voter_cookies', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);
voterCookieSchema.index({ pollId: 1 });

export const VoterCookieModel = primitiveCollection('claimOnce', 'VoterCookie', voterCookieSchema);

const bindingId = (pollId: string, cookieHash: string) => `${pollId}:${cookieHash}`;

/** The voter (voterKey) a cookie is bound to in a poll, if any. */
export async function voterOfCookie(pollId: string, cookieHash: string): Promise<string | undefined> {
  return (await VoterCookieModel.findById(bindingId(pollId, cookieHash), { voterKey: 1 }).lean())?.voterKey;
}

/** Binds a cookie to a voter of a poll; a cookie already bound keeps its voter. */
export async function bindVoterCookie(pollId: string, cookieHash: string, voterKey: string): Promise<void> {
  await claimOnce(VoterCookieModel, { _id: bindingId(pollId, cookieHash), pollId, voterKey });
}
