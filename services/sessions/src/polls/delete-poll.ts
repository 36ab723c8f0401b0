import type { DeletedPoll } from '@logovote/contracts';
import {
  PollModel,
  deleteLogoFiles,
  deletePollStatus,
  hasPollContact,
  hasVoteData,
  recordPollDeleting,
  removePoll,
  signalPollVisibility,
  unindexPollForSearch,
  unlistPoll,
  voteLedger,
} from '@logovote/models';
import type { ObjectStore } from '@logovote/service-kit';
import { previewObjectName, removeLogoObjects } from './object-store';

/** How long a deletion waits for the votes and notify services to remove their data of the poll. */
const OWNERS_WAIT_MS = 10_000;
const OWNERS_POLL_MS = 100;

/** Whether the services that keep data of a poll (votes, notify) have removed all of it. */
async function ownersDone(pollId: string): Promise<boolean> {
  return !(await hasVoteData(pollId)) && !(await hasPollContact(pollId));
}

async function waitForOwners(pollId: string, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await ownersDone(pollId)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, OWNERS_POLL_MS));
  }
}

export interface DeleteOptions {
  /** Go on with a deletion already under way (the retention sweep); otherwise such a poll is not found. */
  resume?: boolean;
  waitMs?: number;
}

/**
 * Deletes a poll with its votes and images (the admin's delete and the retention sweep). The sessions
 * service writes only its own collections: it marks the poll's status 'deleting', which hides it everywhere
 * and tells the votes and notify services to remove their data of it (each within a second), removes the
 * images and the list entry, and removes the poll, then its status, once nothing of it is left elsewhere.
 * Every step can be repeated: if the process stops midway, or an owner is down, the retention sweep
 * finishes the job (the status says 'deleting' until the very end).
 * Resolves with what was removed (`votes`: those counted when the deletion began), or null when there
 * is no such poll.
 */
export async function deletePoll(store: ObjectStore, pollId: string, options: DeleteOptions = {}): Promise<DeletedPoll['deleted'] | null> {
  // Counted before the poll is marked: from then on the votes service may remove its votes at any moment.
  const votes = [...(await voteLedger.readCounts(pollId)).values()].reduce((sum, count) => sum + count, 0);
  if (!(await recordPollDeleting(pollId, options.resume))) return null;
  // Absent when its creation stopped before the poll was recorded, or a deletion after it was removed.
  const logos = (await PollModel.findById(pollId, { logos: 1 }).lean())?.logos ?? [];
  // Open live results streams of the poll end now (docs/live-results.md).
  await signalPollVisibility(pollId);
  // The logos and the link preview made from them (docs/sharing.md).
  const objects = await removeLogoObjects(store, [...logos.map((logo) => logo.filename), previewObjectName(pollId)]);
  await unlistPoll(pollId);
  await unindexPollForSearch(pollId);
  await deleteLogoFiles(pollId);
  if (await waitForOwners(pollId, options.waitMs ?? OWNERS_WAIT_MS)) {
    await removePoll(pollId);
    await deletePollStatus(pollId);
  }
  return { logos: logos.length, votes, objects };
}
