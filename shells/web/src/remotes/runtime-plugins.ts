import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { RetryPlugin } from '@module-federation/retry-plugin';

import { nextTask } from '../next-task';

/** A remote's screen could not be loaded (manifest, remoteEntry or the screen's chunks), retries included. */
export class RemoteLoadError extends Error {
  override name = 'RemoteLoadError';

  constructor(request: string, cause: unknown) {
    super(`Could not load ${request}`, { cause });
  }
}

/**
 * Retries a load that fails for a moment (a dropped connection, a remote restarting), few times and
 * soon, because a remote that is down must still show its fallback quickly:
 * - the manifest fetch once more, after the plugin's fixed 1 s (0.17.1 does not pass `retryDelay` on
 *   to fetches);
 * - the remoteEntry script at once and once more after 0.5 s; the screen's chunks once more after 0.5 s.
 */
function retryPlugin(): ModuleFederationRuntimePlugin {
  return RetryPlugin({ fetch: { retryTimes: 1 }, script: { retryTimes: 1, retryDelay: 500 } });
}

/**
 * Turns a failed loadRemote into a RemoteLoadError, whichever step failed. It returns no fallback module:
 * loadRemote rejects, the screen's error boundary shows RemoteFallback and loadRemoteScreen forgets the
 * load, so 'Try again' starts afresh. At the earlier stages ('afterResolve': the manifest) it does
 * nothing: a value returned there would be taken for the manifest, and a throw there would leave the
 * failed manifest request cached, so that no later attempt fetched it again.
 */
function loadErrorPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'logovote-remote-load-error',
    errorLoadRemote({ id, error, lifecycle }) {
      if (lifecycle === 'onLoad') throw new RemoteLoadError(id, error);
    },
  };
}

/**
 * Loads a remote in several tasks rather than one: its remoteEntry script's evaluation, the container's
 * set-up (sharing negotiated), the exposed screen's chunk request and the screen module's evaluation each
 * start in a task of their own. On a phone each step takes a few tens of milliseconds; run back to back
 * in the script's load event they would hold the main thread (input, painting) for all of them at once.
 */
function taskPerStepPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'logovote-task-per-step',
    async beforeInitContainer(args) {
      await nextTask();
      return args;
    },
    async beforeGetExpose() {
      await nextTask();
    },
    async beforeExecuteFactory() {
      await nextTask();
    },
  };
}

/** The Module Federation runtime plugins the shell loads its remotes with. */
export function remoteLoadingPlugins(): ModuleFederationRuntimePlugin[] {
  return [retryPlugin(), loadErrorPlugin(), taskPerStepPlugin()];
}
