import { Schema, model, type InferSchemaType } from 'mongoose';

/** One row per voter per poll: a changed vote updates the row, so counts never double. */
const voteSchema = new Schema(
  {
    pollId: { type: String, required: true },
    fingerprint: { type: String, required: true },
    logoId: { type: String, required: true },
    /** Salted hash of the voter's IP address: the address itself is never stored. */
    ipHash: { type: String, required: true },
  },
  { collection: 'votes', versionKey: false, timestamps: true },
);
voteSchema.index({ pollId: 1, fingerprint: 1 }, { unique: true });
voteSchema.index({ pollId: 1, logoId: 1 });
voteSchema.index({ pollId: 1, ipHash: 1 });

export type Vote = InferSchemaType<typeof voteSchema>;
export const VoteModel = model('Vote', voteSchema);

/** Exact per-logo counts of a poll, from the votes themselves. */
export async function countVotesByLogo(pollId: string): Promise<Map<string, number>> {
  const rows = await VoteModel.aggregate<{ _id: string; count: number }>([
    { $match: { pollId } },
    { $group: { _id: '$logoId', count: { $sum: 1 } } },
  ]);
  return new Map(rows.map((row) => [row._id, row.count]));
}
