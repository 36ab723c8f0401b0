import { nextTask } from './next-task';
import { remoteForPath } from './remotes/route-remotes';
import { watchStylesheetFailures } from './remotes/stylesheet-recovery';

// Before anything can fail to load: a remote's stylesheet may be the first request that does.
watchStylesheetFailures();

const reportStartFailure = (error: unknown) => {
  // eslint-disable-next-line no-console -- nothing rendered yet: the browser console is the only place to report it
  console.error('LogoVote failed to start', error);
};

// The rest of the start-up runs in tasks of its own: this script's task already holds the Module
// Federation runtime's set-up, and one long task would keep a phone from taking input (and from
// painting) until all of it is done. Two independent sequences of tasks start here, the remote's and
// the app's, so neither waits for the other's steps. (Two follow-ups also keep this script's task in
// Lighthouse's simulation: it drops a short task with a single follow-up from its graph, and then
// counts this script's download as holding back the page's largest paint.)

// The remote this page shows starts loading first (manifest, remoteEntry, screen), in parallel with
// React rather than after it: on a slow network each of those round trips counts. The loader's module
// is part of this script ("eager") but evaluated only here (its runtime-config schema is built on
// import). A failure is reported where the screen renders (RemoteScreen), which loads it through the
// same call.
const firstRemote = remoteForPath(window.location.pathname);
if (firstRemote) {
  void nextTask()
    .then(async () => {
      const { loadRemoteScreen } = await import(/* webpackMode: "eager" */ './remotes/federation');
      // The loader's evaluation in one task, the remote's registration and first requests in the next.
      await nextTask();
      loadRemoteScreen(firstRemote).catch(() => undefined);
    })
    .catch(reportStartFailure);
}

// The app's largest shared libraries (React DOM first: the largest script of all, which on a slow network takes
// longest to arrive; the API client, which builds its schemas on import; TanStack Query) and its first module are
// requested together, so that their scripts download in parallel with each other and
// with the remote's (see shellSharedModules in rspack.config.ts). Each import starts in a task of its own (Module
// Federation resolves the shared module and adds its scripts to the page there), and a library is evaluated when
// its script arrives, not all at once inside the app's first module. Async boundary: Module Federation negotiates
// the shared singletons (react, react-dom, @tanstack/react-query) before any of the app's modules run.
const startImport = (load: () => Promise<unknown>) => () => {
  load().catch(reportStartFailure);
};
void nextTask()
  .then(startImport(() => import('react-dom/client')))
  .then(nextTask)
  .then(startImport(() => import('@logovote/web-client')))
  .then(nextTask)
  .then(startImport(() => import('@tanstack/react-query')))
  .then(nextTask)
  .then(startImport(() => import('./bootstrap')))
  .catch(reportStartFailure);
