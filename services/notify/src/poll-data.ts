import mongoose from 'mongoose';
import { PollContactModel, deletingPollIds, recordNotifyActivity, removeRateTickets, runOnce } from '@logovote/models';
import { pollEmailsBucket } from './send-limit';

/**
 * The notify service's part of deleting polls: removes the e-mail counts and the creator's address of every
 * poll the sessions service marked 'deleting' (the address last: the sessions service waits for it to
 * be gone). Resolves with the polls cleared.
 */
export async function purgeNotifyDataOfDeletedPolls(): Promise<number> {
  let cleared = 0;
  for (const pollId of await deletingPollIds()) {
    await removeRateTickets(pollEmailsBucket(pollId));
    if ((await PollContactModel.deleteOne({ _id: pollId })).deletedCount > 0) cleared++;
  }
  return cleared;
}

/** Moves the creators' addresses that earlier versions kept on the polls into poll_contacts, once per database. */
export function moveCreatorEmails(): Promise<number> {
  return runOnce('poll-contacts-1', async () => {
    let moved = 0;
    const polls = mongoose.connection
      .collection<{ _id: string; creatorEmail?: string; lastActivityAt: Date }>('polls')
      .find({ creatorEmail: { $exists: true } }, { projection: { creatorEmail: 1, lastActivityAt: 1 } });
    for await (const poll of polls) {
      if (!poll.creatorEmail || (await PollContactModel.exists({ _id: poll._id }))) continue;
      await recordNotifyActivity(poll._id, poll.creatorEmail, poll.lastActivityAt);
      moved++;
    }
    return moved;
  });
}
