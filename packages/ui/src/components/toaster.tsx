import { useEffect, useState } from 'react';

import { subscribeToToasts, type ToastMessage } from '../lib/toast-events';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from './toast';

type Shown = ToastMessage & { open: boolean };

/** How long a closed toast stays mounted, so Radix can finish closing it (focus, announcements). */
const REMOVE_DELAY_MS = 300;

/**
 * The page's one notification area. Mount it once, in the shell: it shows the toasts raised with
 * toast() anywhere on the page (see toast-events.ts), at most one at a time, the newest replacing
 * the one showing.
 */
export function Toaster() {
  const [shown, setShown] = useState<Shown | null>(null);

  useEffect(
    () =>
      subscribeToToasts((event) => {
        if (event.type === 'show') setShown({ ...event.toast, open: true });
        else setShown((current) => (current?.id === event.id ? { ...current, open: false } : current));
      }),
    [],
  );

  useEffect(() => {
    if (!shown || shown.open) return;
    const timer = setTimeout(() => setShown((current) => (current?.id === shown.id ? null : current)), REMOVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [shown]);

  return (
    <ToastProvider>
      {shown && (
        <Toast
          key={shown.id}
          data-testid="toast"
          variant={shown.variant ?? 'default'}
          open={shown.open}
          onOpenChange={(open) => {
            if (!open) setShown((current) => (current?.id === shown.id ? { ...current, open: false } : current));
          }}
        >
          <div className="grid gap-1">
            <ToastTitle>{shown.title}</ToastTitle>
            {shown.description && <ToastDescription>{shown.description}</ToastDescription>}
          </div>
          <ToastClose />
        </Toast>
      )}
      <ToastViewport />
    </ToastProvider>
  );
}
