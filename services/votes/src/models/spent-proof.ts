import { HOUR_MS } from '@logovote/contracts';
import { timeBucketedLog } from '@logovote/models';

/**
 * Proofs of work already used, by their challenge's nonce, so each counts once: claimed once, kept
 * until the challenge expires (after that, its proof is refused as expired anyway). A time-bucketed log
 * by the hour the challenge expires, swept whole hours at a time.
 */
const spentProofs = timeBucketedLog<{ pollId: string }>({
  name: 'spent-proofs',
  collection: 'spent_proofs',
  model: 'SpentProof',
  fields: { pollId: { type: String, required: true } },
  spansMs: [HOUR_MS],
});

/** Records a proof as used: false when it was used before. */
export async function spendProof(nonce: string, pollId: string, expiresAt: Date): Promise<boolean> {
  return spentProofs.append(nonce, { pollId }, expiresAt);
}

/** Forgets the proofs whose challenges have expired (whole hours of them); resolves with how many. */
export async function forgetExpiredProofs(now = new Date()): Promise<number> {
  return spentProofs.sweep(now.getTime());
}
