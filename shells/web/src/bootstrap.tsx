import { startTransition, StrictMode } from 'react';
import { matchPath } from '@logovote/ui';
import { api, getFingerprint } from '@logovote/web-client';

import { App } from './App';
import { nextTask } from './next-task';
import { createQueryClient } from './query-client';
import { loadRemoteScreen } from './remotes/federation';
import { REMOTE_PATHS, remoteForPath } from './remotes/route-remotes';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('LogoVote: #root element is missing from index.html');

// React DOM is the largest script the page runs: imported apart, it arrives and is evaluated in a task
// of its own rather than in this module's.
const reactDom = import('react-dom/client');

// The voting page shows nothing but 'Loading' until it knows whether this visitor has voted: that
// read (and the fingerprint it needs) starts now, while the remote's code is still on its way, rather
// than once the screen first renders; the screen takes the answer over.
const votePoll = matchPath(REMOTE_PATHS.vote, window.location.pathname)?.sessionId;
// The fingerprint (a few milliseconds of hashing) is made in a task of its own, not in this module's.
const myVote = votePoll
  ? nextTask()
      .then(getFingerprint)
      .then((fingerprint) => api.prefetchMyVote(votePoll, fingerprint))
      .catch(() => undefined)
  : undefined;

/**
 * How long the first render waits for the page's remote screen (and on the voting page for my-vote).
 * Rendered together, the screen shows at once, rendered as React's transition in short slices; rendered
 * before it, the page shows 'Loading…', React then holds the screen back for 300 ms after that
 * placeholder appeared, and the screen's data arriving later renders the whole screen again in one
 * long task. A remote slower than this gets the placeholder.
 */
const FIRST_SCREEN_WAIT_MS = 1000;

const firstRemote = remoteForPath(window.location.pathname);
const firstScreen = firstRemote ? loadRemoteScreen(firstRemote).catch(() => undefined) : undefined;
const waitForFirstScreen = Promise.race([
  Promise.all([firstScreen, myVote]),
  new Promise((resolve) => setTimeout(resolve, FIRST_SCREEN_WAIT_MS)),
]);

// A transition: React renders the page in short slices, so a phone's main thread stays responsive
// (input is handled between them) while the first screen replaces the HTML's first paint.
// createRoot (which attaches React's event listeners) runs in a task of its own, not in the one that
// evaluated React DOM or the remote's screen, whichever came last.
void Promise.all([reactDom, waitForFirstScreen]).then(async ([{ createRoot }]) => {
  await nextTask();
  startTransition(() =>
    createRoot(container).render(
      <StrictMode>
        <App queryClient={createQueryClient()} />
      </StrictMode>,
    ),
  );
});
