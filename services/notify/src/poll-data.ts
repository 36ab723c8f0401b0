import { deletePollContact, deletingPollIds, removeRateTickets } from '@logovote/models';
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
    if (await deletePollContact(pollId)) cleared++;
  }
  return cleared;
}
