import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One row per voter per poll: a changed vote updates the row, so counts never double.
 *
 * The per-address cap is kept by the indexes alone, because neither FerretDB nor MongoDB without
 * transactions can check "fewer than N rows" and insert atomically (FerretDB even loses concurrent
 * `$inc`s on one document). Each new voter takes one of the numbered seats `ipSlot` 0..cap-1 of its
 * address: the unique {pollId, ipHash, ipSlot} index makes a seat impossible to take twice, so no
 * address ever has more than `cap` voters in a poll, however many requests race.
 */
const voteSchema = new Schema(
  {
    pollId: { type: String, required: true },
    fingerprint: { type: String, required: true },
    logoId: { type: String, required: true },
    /** Salted hash of the voter's network address: the address itself is never stored. */
    ipHash: { type: String, required: true },
    /** The seat this voter holds among the voters from the same address (see above). */
    ipSlot: { type: Number, required: true, min: 0 },
  },
  { collection: 'votes', versionKey: false, timestamps: true },
);
voteSchema.index({ pollId: 1, fingerprint: 1 }, { unique: true });
voteSchema.index({ pollId: 1, ipHash: 1, ipSlot: 1 }, { unique: true });
voteSchema.index({ pollId: 1, logoId: 1 });

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
