/**
 * A tiny History-API router shared by the shell and every remote.
 *
 * There is deliberately no router object or React context to share: all state lives in
 * `window.location`, and every navigation is announced with a DOM event on `window`. So the copy
 * of this module bundled into a remote and the copy in the shell cooperate even though they are
 * separate instances (no Module Federation singleton needed, nothing to get out of sync).
 */

/** Event dispatched on `window` after navigate() changed the URL. */
export const NAVIGATE_EVENT = 'logovote:navigate';

export type NavigateOptions = {
  /** Replace the current history entry instead of pushing a new one. */
  replace?: boolean;
};

/** Go to `to` (absolute path, relative path or same-origin URL) without reloading the page. */
export function navigate(to: string, options: NavigateOptions = {}): void {
  const url = new URL(to, window.location.href);
  if (url.origin !== window.location.origin) {
    window.location.assign(url.href);
    return;
  }
  const target = `${url.pathname}${url.search}${url.hash}`;
  const current = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  if (options.replace || target === current) {
    window.history.replaceState(window.history.state, '', target);
  } else {
    window.history.pushState(null, '', target);
  }
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** Calls `listener` whenever the location may have changed (navigate(), back/forward). */
export function subscribeToLocation(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(NAVIGATE_EVENT, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(NAVIGATE_EVENT, listener);
  };
}
