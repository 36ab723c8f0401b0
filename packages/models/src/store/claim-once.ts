/**
 * Claim-once: an insert under a unique key, which exactly one of any number of racing writers wins, on
 * MongoDB and on FerretDB alike (PostgreSQL enforces FerretDB's unique indexes). Every other primitive
 * here decides its races with it. Cost: one insert. Limits: it decides who wrote first, nothing more; a
 * loser that needs the winner's document reads it itself. A claimed document is never changed; it is
 * removed with its subject (`removeClaims`, one delete by an indexed field), after which its key can be
 * claimed again. A collection written only this way is created with `primitiveCollection('claimOnce', ...)`.
 */

const DUPLICATE_KEY = 11000;

/** Whether a write was refused because a document with one of its unique keys exists. */
export const isDuplicateKey = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === DUPLICATE_KEY;

/** Inserts `document`: true when this call wrote it, false when a document with one of its unique keys was there. */
export async function claimOnce(
  model: { create(document: Record<string, unknown>): Promise<unknown> },
  document: Record<string, unknown>,
): Promise<boolean> {
  try {
    await model.create(document);
    return true;
  } catch (error: unknown) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/**
 * Claim-once for many documents in one round trip (an unordered insert): every document whose unique
 * keys are free is written, and those already there are left as they are. Repeatable.
 */
export async function claimAll(
  model: { insertMany(documents: Record<string, unknown>[], options: { ordered: false }): Promise<unknown> },
  documents: Record<string, unknown>[],
): Promise<void> {
  if (documents.length === 0) return;
  try {
    await model.insertMany(documents, { ordered: false });
  } catch (error: unknown) {
    const failures = (error as { writeErrors?: { code?: unknown; err?: { code?: unknown } }[] } | null)?.writeErrors;
    const onlyDuplicates = failures?.length && failures.every((failure) => isDuplicateKey(failure) || isDuplicateKey(failure.err));
    if (!onlyDuplicates && !isDuplicateKey(error)) throw error;
  }
}

/** Removes the claims whose indexed field equals the filter's value (their subject is deleted); resolves with how many. */
export async function removeClaims(
  model: { deleteMany(filter: Record<string, string>): PromiseLike<{ deletedCount: number }> },
  filter: Record<string, string>,
): Promise<number> {
  return (await model.deleteMany(filter)).deletedCount;
}
