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

// Async boundary: Module Federation negotiates the shared singletons (react, react-dom,
// @tanstack/react-query) before any of the app's modules run.
import('./bootstrap').catch((error: unknown) => {
  // eslint-disable-next-line no-console -- nothing rendered yet: the browser console is the only place to report it
  console.error('LogoVote failed to start', error);
});
