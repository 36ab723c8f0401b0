import type { DeletedPoll } from '@logovote/contracts';
import { PollModel, VoteModel, deleteVoteHistory, unlistPoll } from '@logovote/models';
import type { ObjectStore } from '@logovote/service-kit';
import { removeLogoObjects } from './object-store';

/**
 * Deletes a poll with its votes and images (the admin's delete and the retention sweep). The poll is
 * marked 'deleting' first, which hides it everywhere; every later step can be repeated, so if the
 * process stops midway the next sweep finishes the job, and the record that points at the images
 * goes last. Resolves with what was removed, or null when there is no such poll.
 */
export async function deletePoll(store: ObjectStore, pollId: string): Promise<DeletedPoll['deleted'] | null> {
  // No projection: FerretDB does not implement one on findAndModify.
  const poll = await PollModel.findOneAndUpdate({ _id: pollId }, { $set: { state: 'deleting' } }).lean();
  if (!poll) return null;
  let votes = (await VoteModel.deleteMany({ pollId })).deletedCount;
  await deleteVoteHistory(pollId);
  const objects = await removeLogoObjects(
    store,
    poll.logos.map((logo) => logo.filename),
  );
  await unlistPoll(pollId);
  await PollModel.deleteOne({ _id: pollId });
  // A vote that raced the deletion goes too: nothing outlives its poll.
  votes += (await VoteModel.deleteMany({ pollId })).deletedCount;
  await deleteVoteHistory(pollId);
  return { logos: poll.logos.length, votes, objects };
}
