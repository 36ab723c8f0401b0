/**
 * The logos a voter has had on screen, per poll, kept in this browser's local storage (docs/every-option-seen.md):
 * the voting screen's 'N logos not seen yet', its first paint's copy of that line and the vote's `saw_all_logos`
 * all count from it, so a returning voter is not told of logos they have already seen. Free of state and of
 * other modules, so start.js stays small.
 */
const storageKey = (pollId: string) => `logovote.seenLogos.${pollId}`;

/** Storage the seen logos are kept in (window.localStorage in the browser). */
export type SeenLogosStorage = Pick<Storage, 'getItem' | 'setItem'>;

function browserStorage(): SeenLogosStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Storage refused (privacy settings): what was seen is then known for this visit only.
    return undefined;
  }
}

/** The ids of the logos of poll `pollId` this browser has had on screen (none when storage fails or holds nonsense). */
export function seenLogos(pollId: string, storage: SeenLogosStorage | undefined = browserStorage()): Set<string> {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(storageKey(pollId)) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Adds `logoIds` to the logos of poll `pollId` this browser has seen (kept with those another tab may have added). */
export function rememberSeenLogos(
  pollId: string,
  logoIds: Iterable<string>,
  storage: SeenLogosStorage | undefined = browserStorage(),
): void {
  const seen = seenLogos(pollId, storage);
  const before = seen.size;
  for (const id of logoIds) seen.add(id);
  if (seen.size === before) return;
  try {
    storage?.setItem(storageKey(pollId), JSON.stringify([...seen]));
  } catch {
    // A full storage: the next visit counts from the logo it shows.
  }
}

/** How many of `logoIds` are neither in `seen` nor the one on screen (`shownId`). */
export function unseenLogoCount(logoIds: readonly string[], seen: ReadonlySet<string>, shownId?: string): number {
  return logoIds.filter((id) => id !== shownId && !seen.has(id)).length;
}

/** The voting screen's line while some logos have not been on screen (its first paint's too). */
export function unseenLogosText(count: number): string {
  return `${count} ${count === 1 ? 'logo' : 'logos'} not seen yet`;
}
