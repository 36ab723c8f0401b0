import type { ModerationState, SessionView, VotingState, VotingStateChange } from '@logovote/contracts';

import type { ApiClient } from './api-client';
import { CREATOR_TOKEN_HEADER, MANAGE_FRAGMENT } from './constants';

/**
 * Closing a poll from the browser (docs/closing.md): the creator token kept per poll in this browser,
 * the token a manage link brings in its fragment, and the close and reopen calls.
 */

/** Storage the tokens are kept in (window.localStorage in the browser). */
export type CreatorTokenStorage = Pick<Storage, 'getItem' | 'setItem'>;

const STORAGE_PREFIX = 'logovote.creatorToken.';
/** The contract's CreatorToken, restated (the contracts' zod schemas stay out of the page's bundle). */
const CREATOR_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Tokens taken from a manage link on this page: still known when the browser's storage refused them. */
const takenTokens = new Map<string, string>();

const browserStorage = (): CreatorTokenStorage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage);

/** Keeps the creator token of a poll in this browser (a browser that refuses storage only loses the controls here). */
export function rememberCreatorToken(sessionId: string, token: string, storage = browserStorage()): void {
  if (!CREATOR_TOKEN.test(token)) return;
  try {
    storage?.setItem(STORAGE_PREFIX + sessionId, token);
  } catch {
    // Private mode or a full storage: the e-mail's manage link still carries the token.
  }
}

/** The creator token this browser keeps for a poll, if any. */
export function storedCreatorToken(sessionId: string, storage = browserStorage()): string | undefined {
  try {
    const token = storage?.getItem(STORAGE_PREFIX + sessionId);
    return token && CREATOR_TOKEN.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The creator token of a poll: taken from a manage link's `#manage=<token>` (then kept, and the fragment
 * removed from the address bar and the history entry, so it is not shared by a copied URL), or the one
 * this browser keeps.
 */
export function takeCreatorToken(sessionId: string, storage = browserStorage()): string | undefined {
  if (typeof window !== 'undefined') {
    const fragment = new URLSearchParams(window.location.hash.slice(1)).get(MANAGE_FRAGMENT);
    if (fragment !== null) {
      const { pathname, search } = window.location;
      window.history.replaceState(window.history.state, '', pathname + search);
      if (CREATOR_TOKEN.test(fragment)) {
        rememberCreatorToken(sessionId, fragment, storage);
        takenTokens.set(sessionId, fragment);
        return fragment;
      }
    }
  }
  return storedCreatorToken(sessionId, storage) ?? takenTokens.get(sessionId);
}

/** The private manage link of a poll: its results page with the token in the fragment (the contracts' manageLink, from a results URL). */
export const manageUrl = (resultsUrl: string, creatorToken: string): string => `${resultsUrl}#${MANAGE_FRAGMENT}=${creatorToken}`;

/** Whether a poll takes votes (the session view says `closed: true` only while it does not). */
export function votingStateOf(session: SessionView): { closed: boolean; closedAt?: string } {
  const { closed, closedAt } = session as SessionView & VotingState;
  return closed === true ? { closed, ...(closedAt ? { closedAt } : {}) } : { closed: false };
}

/** Whether a poll is hidden pending review after voters' reports (the session view says `hidden: true` only then; docs/moderation.md). */
export function isPollHidden(session: SessionView): boolean {
  return (session as SessionView & ModerationState).hidden === true;
}

/** POST /api/sessions/{id}/close or /reopen with the creator token (the anti-forgery token is the client's, as for every write). */
export function changeVotingState(
  client: Pick<ApiClient, 'request'>,
  sessionId: string,
  closed: boolean,
  creatorToken: string,
): Promise<VotingStateChange> {
  return client.request<VotingStateChange>(`/api/sessions/${encodeURIComponent(sessionId)}/${closed ? 'close' : 'reopen'}`, {
    method: 'POST',
    headers: { [CREATOR_TOKEN_HEADER]: creatorToken },
  });
}
