import type { RemoteName } from '@logovote/contracts';
import { getInstance } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

import { REMOTES, type RemoteScreenProps } from './registry';
import { loadRuntimeConfig } from './runtime-config';
import { reloadFailedStylesheets } from './stylesheet-recovery';

let registration: Promise<void> | null = null;

function federation() {
  // Created by the Module Federation build plugin's bundler runtime before any app code runs.
  const instance = getInstance();
  if (!instance) throw new Error('Module Federation runtime is not initialised');
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

/**
 * Loads the screen component a remote exposes (manifest → remoteEntry → exposed chunk), once: the
 * entry module may have started it already (see index.ts). A failed load is forgotten, so the next
 * call ('Try again') starts afresh.
 */
export function loadRemoteScreen<N extends RemoteName>(name: N): Promise<ComponentType<RemoteScreenProps[N]>> {
  let screen = screens.get(name) as Promise<ComponentType<RemoteScreenProps[N]>> | undefined;
  if (!screen) {
    screen = loadScreen(name);
    screens.set(name, screen as Promise<ComponentType<never>>);
    screen.catch(() => {
      if (screens.get(name) === screen) screens.delete(name);
    });
  }
  return screen;
}
