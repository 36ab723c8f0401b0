import type { RemoteName } from '@logovote/contracts';
import { getInstance, type ModuleFederation } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

import { REMOTES, type RemoteScreenProps } from './registry';
import { loadRuntimeConfig } from './runtime-config';
import { remoteLoadingPlugins } from './runtime-plugins';
import { reloadFailedStylesheets } from './stylesheet-recovery';

let registration: Promise<void> | null = null;
let instance: ModuleFederation | null = null;

/**
 * The shell's Module Federation instance, with the remote loading plugins (retry, load errors) registered
 * on first use, before any remote is: here rather than in the build plugin's `runtimePlugins`, beside the
 * run-time registration of the remotes they serve.
 */
function federation(): ModuleFederation {
  if (!instance) {
    // Created by the Module Federation build plugin's bundler runtime before any app code runs.
    const created = getInstance();
    if (!created) throw new Error('Module Federation runtime is not initialised');
    created.registerPlugins(remoteLoadingPlugins());
    instance = created;
  }
  return instance;
}

/** Registers every remote listed in /runtime-config.json with the MF runtime (once; retried after a failure). */
function ensureRemotesRegistered(): Promise<void> {
  registration ??= loadRuntimeConfig()
    .then((config) => {
      federation().registerRemotes(
        Object.entries(config.remotes).map(([key, { manifestUrl }]) => ({
          name: REMOTES[key as RemoteName].container,
          entry: manifestUrl,
        })),
      );
    })
    .catch((error: unknown) => {
      registration = null;
      throw error;
    });
  return registration;
}

type ScreenModule<P> = { default?: ComponentType<P> };

async function loadScreen<N extends RemoteName>(name: N): Promise<ComponentType<RemoteScreenProps[N]>> {
  await ensureRemotesRegistered();
  reloadFailedStylesheets();
  const { container, expose } = REMOTES[name];
  const module = await federation().loadRemote<ScreenModule<RemoteScreenProps[N]>>(`${container}/${expose}`);
  const screen = module?.default;
  if (typeof screen !== 'function') {
    throw new Error(`Remote ${container} did not expose a component as ./${expose}`);
  }
  return screen;
}

const screens = new Map<RemoteName, Promise<ComponentType<never>>>();
/** Screens whose load has finished, for a synchronous render (see loadedRemoteScreen). */
const loadedScreens = new Map<RemoteName, ComponentType<never>>();

/**
 * Loads the screen component a remote exposes (manifest → remoteEntry → exposed chunk, each retried
 * briefly: see runtime-plugins.ts), once: the entry module may have started it already (see index.ts).
 * A failed load is forgotten, so the next call ('Try again') starts afresh.
 */
export function loadRemoteScreen<N extends RemoteName>(name: N): Promise<ComponentType<RemoteScreenProps[N]>> {
  let screen = screens.get(name) as Promise<ComponentType<RemoteScreenProps[N]>> | undefined;
  if (!screen) {
    screen = loadScreen(name);
    screens.set(name, screen as Promise<ComponentType<never>>);
    screen.then(
      (component) => loadedScreens.set(name, component as ComponentType<never>),
      () => {
        if (screens.get(name) === screen) screens.delete(name);
      },
    );
  }
  return screen;
}

/**
 * The remote's screen if it has loaded already. Rendered directly, it shows without a Suspense
 * fallback: React holds back content that replaces a fallback for up to 300 ms after the fallback
 * appeared, which would delay the voting page's first logos on every arrival.
 */
export function loadedRemoteScreen<N extends RemoteName>(name: N): ComponentType<RemoteScreenProps[N]> | undefined {
  return loadedScreens.get(name) as ComponentType<RemoteScreenProps[N]> | undefined;
}
