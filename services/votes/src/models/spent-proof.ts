import { Schema, model } from 'mongoose';
import { isDuplicateKey } from '@logovote/models';

/**
 * Proofs of work already used, by their challenge's nonce, so each counts once. Insert-only; kept
 * until the challenge expires (after that, its proof is refused as expired anyway).
 */
const spentProofSchema = new Schema(
  {
    /** The challenge's nonce. */
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'spent_proofs', versionKey: false },
);
spentProofSchema.index({ expiresAt: 1 });

const SpentProofModel = model('SpentProof', spentProofSchema);

/** Records a proof as used: false when it was used before. */
export async function spendProof(nonce: string, pollId: string, expiresAt: Date): Promise<boolean> {
  try {
    await SpentProofModel.create({ _id: nonce, pollId, expiresAt });
    return true;
  } catch (error: unknown) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/** Forgets the proofs whose challenges have expired; resolves with how many. */
export async function forgetExpiredProofs(now = new Date()): Promise<number> {
  return (await SpentProofModel.deleteMany({ expiresAt: { $lt: now } })).deletedCount;
}
