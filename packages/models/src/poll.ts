import { Schema, model, type InferSchemaType } from 'mongoose';
import { PaymentPlan } from '@logovote/contracts';

const storedLogoSchema = new Schema(
  {
    /** Public id of the logo within its poll (what votes name). */
    id: { type: String, required: true },
    /** Object name in the bucket, also the public file name under /api/logos/. */
    filename: { type: String, required: true },
    originalName: { type: String, required: true },
    contentType: { type: String, required: true },
    size: { type: Number, required: true },
  },
  { _id: false },
);

/**
 * A poll ("voting session"). Vote counts are not stored here: the votes collection is the source of
 * truth and counts are aggregated from it, so they are exact as soon as a vote is acknowledged.
 */
const pollSchema = new Schema(
  {
    _id: { type: String, required: true },
    feedbackPrompt: { type: String },
    logos: { type: [storedLogoSchema], required: true },
    paymentPlan: { type: String, enum: PaymentPlan.options, default: 'free', required: true },
    creatorEmail: { type: String },
    /** Voting, notifying and creating count as activity; the retention sweep reads this. */
    lastActivityAt: { type: Date, required: true, default: () => new Date(), index: true },
  },
  { collection: 'polls', versionKey: false, timestamps: { createdAt: true, updatedAt: false } },
);

export type Poll = InferSchemaType<typeof pollSchema> & { _id: string; createdAt: Date };
export type StoredLogo = InferSchemaType<typeof storedLogoSchema>;
export const PollModel = model('Poll', pollSchema);

/** Records activity on a poll (FerretDB has no TTL indexes, so retention is the application's sweep). */
export async function touchPoll(pollId: string, at: Date = new Date()): Promise<void> {
  await PollModel.updateOne({ _id: pollId }, { $set: { lastActivityAt: at } });
}
