/**
 * @logovote/web-client: the browser's side of the product's calls. The shell and every remote share
 * ONE instance of this module per page (a Module Federation singleton, see sharedModules() in mfes/rspack.remote.ts), so
 * the per-session anti-forgery tokens, the fingerprint and the analytics queue are the same wherever
 * they are used.
 */
import { createAnalytics } from './analytics';
import { createApiClient } from './api-client';
import { resolveFingerprint } from './fingerprint';
import { pagePollReader } from './page-poll';

export * from './constants';
export { ApiError } from './api-error';
export {
  createApiClient,
  MESSAGES,
  type ApiClient,
  type AdminPollPage,
  type AdminPollSearch,
  type UploadRefusalPage,
  type ApiClientOptions,
  type CreateSessionInput,
  type RequestOptions,
} from './api-client';
export type { UploadOptions, UploadProgress } from './upload';
export {
  browserFingerprintSource,
  clearStoredFingerprint,
  computeFingerprint,
  fingerprintText,
  resolveFingerprint,
  storedFingerprint,
  type FingerprintSource,
} from './fingerprint';
export { createAnalytics, ANALYTICS_ENDPOINT, type Analytics, type AnalyticsProps } from './analytics';
export { inVoterOrder, voterOrderCookie } from './voter-order';
export {
  changeVotingState,
  isPollHidden,
  manageUrl,
  rememberCreatorToken,
  storedCreatorToken,
  takeCreatorToken,
  votingStateOf,
  type CreatorTokenStorage,
} from './closing';
export { resultsVisibilityOf, type ResultsViewer } from './results-visibility';
export { channelVotingUrl } from '@logovote/contracts/channel-link';
export { takeFirstPaintVote } from './first-paint-vote';
export { rememberSeenLogos, seenLogos, unseenLogoCount, unseenLogosText, type SeenLogosStorage } from './seen-logos';

/**
 * The page's API client (same origin: every call goes through the gateway). Its proof-of-work solver
 * is loaded only when a vote is answered with a challenge.
 */
export const api = createApiClient({
  solveVoteChallenge: async (challenge) => (await import('./proof-of-work')).solveVoteChallenge(challenge),
  pagePoll: pagePollReader(),
});

/** The page's analytics queue. */
export const analytics = createAnalytics();

let fingerprint: Promise<string> | null = null;
let resolvedFingerprint: string | undefined;

/** This browser's fingerprint (stored or made once per page load). */
export function getFingerprint(): Promise<string> {
  fingerprint ??= resolveFingerprint().then(
    (value) => (resolvedFingerprint = value),
    (error: unknown) => {
      fingerprint = null;
      throw error;
    },
  );
  return fingerprint;
}

/** The fingerprint getFingerprint has made, once it has (for a first render that need not wait a frame for it). */
export function knownFingerprint(): string | undefined {
  return resolvedFingerprint;
}
