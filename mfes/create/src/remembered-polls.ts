import { MAX_FEEDBACK_PROMPT_LENGTH } from '@logovote/contracts/limits';
import * as z from 'zod/mini';

import { REMEMBERED_POLLS_KEY } from './remembered-polls-key';

/**
 * The polls this browser created (docs/your-polls.md), newest first, kept in localStorage so that closing
 * the creation dialog loses nothing. Each entry is validated when read: an entry another version of the
 * page, an extension or a hand edit left malformed is skipped, and unreadable storage reads as no polls.
 * The creator token stays where web-client keeps it (closing.ts), per poll.
 */

/** Storage the list is kept in (window.localStorage in the browser). */
export type RememberedPollStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The list keeps this many polls; older ones drop off (they still live on the server and in any e-mail). */
export const MAX_REMEMBERED_POLLS = 20;

const RememberedPoll = z.object({
  sessionId: z.string().check(z.regex(/^[A-Za-z0-9_-]{16}$/)),
  votingUrl: z.url({ protocol: /^https?$/ }),
  resultsUrl: z.url({ protocol: /^https?$/ }),
  question: z.optional(z.string().check(z.maxLength(MAX_FEEDBACK_PROMPT_LENGTH))),
  createdAt: z.iso.datetime(),
  /** SHA-256 of the logos' bytes and the question (pollContentHash), absent where the browser cannot hash. */
  contentHash: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
  /** The creator went through the dialog to its last step ('sent'), so a poll with the same logos is made on purpose. */
  finished: z.boolean(),
});
export type RememberedPoll = z.infer<typeof RememberedPoll>;

const browserStorage = (): RememberedPollStorage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

/** The polls kept in `storage`, newest first; whatever does not validate is left out. */
export function readRememberedPolls(storage = browserStorage()): RememberedPoll[] {
  let stored: unknown;
  try {
    stored = JSON.parse(storage?.getItem(REMEMBERED_POLLS_KEY) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(stored)) return [];
  const polls: RememberedPoll[] = [];
  for (const entry of stored) {
    const parsed = RememberedPoll.safeParse(entry);
    if (parsed.success && !polls.some((poll) => poll.sessionId === parsed.data.sessionId)) polls.push(parsed.data);
  }
  return polls.slice(0, MAX_REMEMBERED_POLLS);
}

const listeners = new Set<() => void>();
let snapshot: RememberedPoll[] | undefined;

function write(polls: RememberedPoll[], storage: RememberedPollStorage | undefined): void {
  try {
    storage?.setItem(REMEMBERED_POLLS_KEY, JSON.stringify(polls.slice(0, MAX_REMEMBERED_POLLS)));
  } catch {
    // Private mode or a full storage: the dialog still shows the links, and the e-mail carries them.
  }
  snapshot = undefined;
  listeners.forEach((listener) => listener());
}

/** Adds a poll just created at the top of the list (a poll already listed moves there). */
export function rememberPoll(poll: RememberedPoll, storage = browserStorage()): void {
  write([poll, ...readRememberedPolls(storage).filter((kept) => kept.sessionId !== poll.sessionId)], storage);
}

/** Marks a poll whose creator reached the dialog's last step. */
export function markPollFinished(sessionId: string, storage = browserStorage()): void {
  const polls = readRememberedPolls(storage);
  if (!polls.some((poll) => poll.sessionId === sessionId && !poll.finished)) return;
  write(
    polls.map((poll) => (poll.sessionId === sessionId ? { ...poll, finished: true } : poll)),
    storage,
  );
}

/** Takes a poll off this browser's list (the poll itself lives on). */
export function forgetPoll(sessionId: string, storage = browserStorage()): void {
  write(
    readRememberedPolls(storage).filter((poll) => poll.sessionId !== sessionId),
    storage,
  );
}

/**
 * The newest poll made from the same logos and question whose creator left the dialog before its last step:
 * the one a second 'Get Votes!' would silently duplicate.
 */
export function unfinishedPollWithContent(contentHash: string, storage = browserStorage()): RememberedPoll | undefined {
  return readRememberedPolls(storage).find((poll) => poll.contentHash === contentHash && !poll.finished);
}

/** For useSyncExternalStore: the list as last read, read again after every change here or in another tab. */
export function rememberedPollsSnapshot(): RememberedPoll[] {
  return (snapshot ??= readRememberedPolls());
}

const onStorage = (event: StorageEvent) => {
  if (event.key !== REMEMBERED_POLLS_KEY && event.key !== null) return;
  snapshot = undefined;
  listeners.forEach((listener) => listener());
};

/** Calls `listener` whenever the list changes; returns the unsubscribe. */
export function subscribeToRememberedPolls(listener: () => void): () => void {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
}
