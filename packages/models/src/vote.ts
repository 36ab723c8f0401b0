import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One row per voter per poll, keyed by the pair (voteId): voting again updates the row, so counts
 * never double, and the key makes a second row for one voter impossible.
 *
 * The per-address cap is kept by an index too, because neither FerretDB nor MongoDB without
 * transactions can check "fewer than N rows" and insert atomically (FerretDB even loses concurrent
 * `$inc`s on one document). Each new voter takes one of the numbered seats `ipSlot` 0..cap-1 of its
 * address: the unique {pollId, ipHash, ipSlot} index makes a seat impossible to take twice, so no
 * address ever has more than `cap` voters in a poll, however many requests race.
 */
const voteSchema = new Schema(
  {
    _id: { type: String, required: true },
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
voteSchema.index({ pollId: 1, ipHash: 1, ipSlot: 1 }, { unique: true });
voteSchema.index({ pollId: 1, logoId: 1 });

export type Vote = InferSchemaType<typeof voteSchema>;

/** The key of a voter's vote in a poll. */
export const voteId = (pollId: string, fingerprint: string): string => `${pollId}:${fingerprint}`;
export const VoteModel = model('Vote', voteSchema);

/** Exact per-logo counts of a poll, from the votes themselves. */
export async function countVotesByLogo(pollId: string): Promise<Map<string, number>> {
  const rows = await VoteModel.aggregate<{ _id: string; count: number }>([
    { $match: { pollId } },
    { $group: { _id: '$logoId', count: { $sum: 1 } } },
  ]);
  return new Map(rows.map((row) => [row._id, row.count]));
}
