import { embeddedPoll } from '@logovote/web-client/page-poll';

import { loadRemoteScreen } from './remotes/federation';
import { remoteForPath } from './remotes/route-remotes';
import { watchStylesheetFailures } from './remotes/stylesheet-recovery';

// Before anything can fail to load: a remote's stylesheet may be the first request that does.
watchStylesheetFailures();

// The remote this page shows starts loading now (manifest, remoteEntry, screen), in parallel with
// React rather than after it: on a slow network each of those round trips counts. Its failure is
// reported where the screen renders (RemoteScreen), which loads it through the same call.
const firstRemote = remoteForPath(window.location.pathname);
if (firstRemote) loadRemoteScreen(firstRemote).catch(() => undefined);

// The results page paints its most voted logo first: with the poll in the page's HTML, that image is
// requested now, beside the code, rather than once the screen has rendered. (The HTML itself preloads
// a poll's first logo, the voting page's largest paint.)
const mostVoted = firstRemote === 'results' ? embeddedPoll()?.logos.toSorted((a, b) => b.voteCount - a.voteCount)[0] : undefined;
if (mostVoted) {
  const preload = Object.assign(document.createElement('link'), {
    rel: 'preload',
    as: 'image',
    href: `/api/logos/${encodeURIComponent(mostVoted.filename)}`,
  });
  preload.setAttribute('fetchpriority', 'high');
  document.head.append(preload);
}

// Async boundary: Module Federation negotiates the shared singletons (react, react-dom,
// @tanstack/react-query) before any of the app's modules run.
import('./bootstrap').catch((error: unknown) => {
  // eslint-disable-next-line no-console -- nothing rendered yet: the browser console is the only place to report it
  console.error('LogoVote failed to start', error);
});
