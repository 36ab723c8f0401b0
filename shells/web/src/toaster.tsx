import { Toaster } from '@logovote/ui';
import { useEffect } from 'react';

/** The page's toast area (loaded on demand, see deferred-toaster.tsx); `onReady` runs once it listens for toasts. */
export function ReadyToaster({ onReady }: { onReady: () => void }) {
  // Children's effects run before their parent's: <Toaster /> has subscribed by the time this runs.
  useEffect(onReady, [onReady]);
  return <Toaster />;
}
