import { Schema } from 'mongoose';
import { primitiveCollection } from './store/collections';
import { claimOnce, removeClaims } from './store/claim-once';

/**
 * Which poll each stored logo image belongs to, keyed by its file name (docs/moderation.md): the media
 * service finds a logo's poll with one key lookup, to refuse the images of a poll that is hidden or gone.
 * Written by the sessions service with the poll's first write (insert-only: a file name never moves to
 * another poll) and removed with the poll.
 */
const logoFileSchema = new Schema(
  {
    /** The logo's object name, its public file name under /api/logos/. */
    _id: { type: String, required: true },
    pollId: { type: String, required: true },
  },
  { collection: 'logo_files', versionKey: false },
);
logoFileSchema.index({ pollId: 1 });
export const LogoFileModel = primitiveCollection('claimOnce', 'LogoFile', logoFileSchema);

/** Records a poll's logo file names (repeatable: a name recorded already is kept as it is). */
export async function recordLogoFiles(pollId: string, filenames: string[]): Promise<void> {
  await Promise.all(filenames.map((filename) => claimOnce(LogoFileModel, { _id: filename, pollId })));
}

/** The poll a logo file belongs to, or null for a name no poll has (one key lookup). */
export async function pollOfLogoFile(filename: string): Promise<string | null> {
  return (await LogoFileModel.findById(filename, { pollId: 1 }).lean())?.pollId ?? null;
}

/** Removes a poll's logo file names (with the poll). */
export async function deleteLogoFiles(pollId: string): Promise<void> {
  await removeClaims(LogoFileModel, { pollId });
}
