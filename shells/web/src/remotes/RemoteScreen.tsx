import type { RemoteName } from '@logovote/contracts';
import { useLocation } from '@logovote/ui';
import { lazy, Suspense, useState, type ComponentType, type ErrorInfo, type LazyExoticComponent } from 'react';
import { ErrorBoundary } from 'react-error-boundary';

import { loadedRemoteScreen, loadRemoteScreen } from './federation';
import type { RemoteScreenProps } from './registry';
import { PageLoading, RemoteFallback } from './RemoteStatus';

type LazyScreen<N extends RemoteName> = LazyExoticComponent<ComponentType<RemoteScreenProps[N]>>;

// One lazy component per remote, so navigating back to a loaded remote renders at once.
// A failed load is evicted, so 'Try again' (or the next visit) starts a fresh load.
const screens = new Map<RemoteName, LazyScreen<RemoteName>>();

function getLazyScreen<N extends RemoteName>(name: N): LazyScreen<N> {
  let screen = screens.get(name) as LazyScreen<N> | undefined;
  if (!screen) {
    const created: LazyScreen<N> = lazy(() =>
      loadRemoteScreen(name).then(
        (component) => ({ default: component }),
        (error: unknown) => {
          if (screens.get(name) === created) screens.delete(name);
          throw error;
        },
      ),
    );
    screens.set(name, created as LazyScreen<RemoteName>);
    screen = created;
  }
  return screen;
}

function logRemoteFailure(remote: RemoteName, error: unknown, info: ErrorInfo): void {
  // eslint-disable-next-line no-console -- the user sees the fallback; the cause goes to the console for diagnosis
  console.error(`[LogoVote] remote "${remote}" is unavailable`, error, info.componentStack);
}

type Props<N extends RemoteName> = { remote: N; props: RemoteScreenProps[N] };

/**
 * A remote's screen, loaded on demand. While it loads a placeholder is shown; if the remote is
 * down (manifest, remoteEntry or chunk still fails after a brief retry) or its screen throws, only
 * this area shows the fallback with 'Try again'; the rest of the shell keeps working.
 */
export function RemoteScreen<N extends RemoteName>({ remote, props }: Props<N>) {
  const { pathname } = useLocation();
  const [attempt, setAttempt] = useState(0);
  const Screen = loadedRemoteScreen(remote) ?? (getLazyScreen(remote) as ComponentType<RemoteScreenProps[N]>);
  // A change of page or a 'Try again' (attempt) clears a shown failure and renders the screen again.
  return (
    <ErrorBoundary
      key={remote}
      resetKeys={[pathname, attempt]}
      onError={(error, info) => logRemoteFailure(remote, error, info)}
      fallbackRender={() => <RemoteFallback remote={remote} onRetry={() => setAttempt((n) => n + 1)} />}
    >
      <Suspense fallback={<PageLoading remote={remote} />}>
        <Screen {...props} />
      </Suspense>
    </ErrorBoundary>
  );
}
