import type { Channel } from '@logovote/contracts';

/**
 * The channel of the link this browser first arrived through, per poll (docs/channels.md), kept in
 * localStorage: the first arrival wins, '' when it was the plain link. An id that is no channel of the
 * poll counts as the plain link. Polls without channels keep nothing.
 */
const storageKey = (sessionId: string) => `logovote.arrivedVia.${sessionId}`;

/** Storage the arrival is kept in (window.localStorage in the browser). */
export type ArrivalStorage = Pick<Storage, 'getItem' | 'setItem'>;

const browserStorage = (): ArrivalStorage | undefined => {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Storage refused (privacy settings): the vote then counts for the link of this visit.
    return undefined;
  }
};

/**
 * The channel id this browser's vote counts for, remembering this visit's link when it is the first: `via`
 * (the voting link's parameter, null without one) if it names one of `channels`, else none.
 */
export function arrivalChannel(
  sessionId: string,
  channels: readonly Channel[] | undefined,
  via: string | null,
  storage: ArrivalStorage | undefined = browserStorage(),
): string | undefined {
  if (!channels?.length) return undefined;
  const known = (id: string | null | undefined): id is string => !!id && channels.some((channel) => channel.id === id);
  const stored = storage?.getItem(storageKey(sessionId));
  if (stored !== null && stored !== undefined) return known(stored) ? stored : undefined;
  const arrival = known(via) ? via : undefined;
  storage?.setItem(storageKey(sessionId), arrival ?? '');
  return arrival;
}
