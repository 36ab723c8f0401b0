import { versionedValue } from './store/versioned-value';

/**
 * What the notify service knows of a poll's creator: the address the links last went to, and when
 * the creator last asked for them (activity, for the retention sweep). The notify service writes it;
 * the sessions service reads it (the admin's 'Creator Email', retention) and never writes it.
 *
 * A versioned value keyed by the poll (./store/versioned-value): each request for the links is a new
 * version, so two requests at once both count and the address a send recorded is kept by the next
 * request that did not send. Reading it is one equality lookup.
 */
export interface PollContact {
  /** The address that received the links (absent until a send succeeded). */
  email?: string;
  lastActivityAt: Date;
}

const pollContacts = versionedValue<PollContact>({
  collection: 'poll_contacts',
  model: 'PollContact',
  fields: {
    email: { type: String },
    lastActivityAt: { type: Date, required: true },
  },
});

/** Records a request for the links (and the address, once they went to it). */
export async function recordNotifyActivity(pollId: string, email?: string, at: Date = new Date()): Promise<void> {
  await pollContacts.change(
    pollId,
    (current) => {
      const address = email ?? current?.value.email;
      return { lastActivityAt: at, ...(address === undefined ? {} : { email: address }) };
    },
    at,
  );
}

/** A poll's contact, or null when its creator never asked for the links. */
export async function readPollContact(pollId: string): Promise<PollContact | null> {
  return (await pollContacts.read(pollId))?.value ?? null;
}

/** Whether anything of a poll's contact is stored (the sessions service waits for none before removing the poll). */
export const hasPollContact = (pollId: string): Promise<boolean> => pollContacts.exists(pollId);

/** Removes a poll's contact; true when there was one. */
export const deletePollContact = (pollId: string): Promise<boolean> => pollContacts.remove(pollId);
