import { useSyncExternalStore } from 'react';

import { subscribeToLocation } from './history';

export type Location = { pathname: string; search: string; hash: string };

const getHref = () => window.location.href;
const getServerHref = () => 'http://localhost/';

/** The current location; re-renders on every navigation. */
export function useLocation(): Location {
  const href = useSyncExternalStore(subscribeToLocation, getHref, getServerHref);
  const url = new URL(href);
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}
