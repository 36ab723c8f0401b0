import { Schema, model } from 'mongoose';
import { POLL_HIDDEN } from '@logovote/contracts';
import { HttpError } from '@logovote/service-kit';
import { PollModel, activePoll, findActivePollOr404, type Poll } from './poll';
import { readModerationState } from './poll-report';
import { isDuplicateKey } from './tally-ledger';

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
export const LogoFileModel = model('LogoFile', logoFileSchema);

/** Records a poll's logo file names (repeatable: a name recorded already is kept as it is). */
export async function recordLogoFiles(pollId: string, filenames: string[]): Promise<void> {
  await Promise.all(
    filenames.map((filename) =>
      LogoFileModel.create({ _id: filename, pollId }).catch((error: unknown) => {
        if (!isDuplicateKey(error)) throw error;
      }),
    ),
  );
}

/** The poll a logo file belongs to, or null for a name no poll has (one key lookup). */
export async function pollOfLogoFile(filename: string): Promise<string | null> {
  return (await LogoFileModel.findById(filename, { pollId: 1 }).lean())?.pollId ?? null;
}

/** Removes a poll's logo file names (with the poll). */
export async function deleteLogoFiles(pollId: string): Promise<void> {
  await LogoFileModel.deleteMany({ pollId });
}

/**
 * Whether a poll may be shown to the public now: active (not half-created, not being deleted) and not
 * hidden pending review. Two equality lookups, run together.
 */
export async function isPollShown(pollId: string): Promise<boolean> {
  const [active, moderation] = await Promise.all([PollModel.exists(activePoll(pollId)), readModerationState(pollId)]);
  return active !== null && !moderation.hidden;
}

/**
 * The poll a public read names, if its content may be shown: the spec's 404 for a poll that does not
 * exist (findActivePollOr404), and 403 POLL_HIDDEN for one hidden pending review (docs/moderation.md).
 */
export async function findShownPollOr4xx<Fields extends keyof Poll>(
  sessionId: string | undefined,
  fields?: Fields[],
): Promise<Pick<Poll, Fields | '_id'>> {
  const poll = await findActivePollOr404(sessionId, fields);
  if ((await readModerationState(poll._id)).hidden) throw new HttpError(403, POLL_HIDDEN);
  return poll;
}
