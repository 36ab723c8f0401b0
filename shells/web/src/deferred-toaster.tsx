import { subscribeToToasts, TOAST_EVENT, type ToastEvent } from '@logovote/ui';
import { useEffect, useState, type ComponentType } from 'react';

type ToasterComponent = ComponentType<{ onReady: () => void }>;

/** Radix's hotkey that moves focus to the notification area. */
const VIEWPORT_HOTKEY = 'F8';

// Toasts raised before the toast area's code has arrived: shown, in order, as soon as it has.
const early: ToastEvent[] = [];
const stopKeeping = subscribeToToasts((event) => early.push(event));
let hotkeyPressedEarly = false;

function handOverEarlyEvents(): void {
  stopKeeping();
  for (const detail of early.splice(0)) window.dispatchEvent(new CustomEvent<ToastEvent>(TOAST_EVENT, { detail }));
  if (hotkeyPressedEarly) {
    hotkeyPressedEarly = false;
    document.dispatchEvent(new KeyboardEvent('keydown', { key: VIEWPORT_HOTKEY, code: VIEWPORT_HOTKEY, bubbles: true }));
  }
}

const TRIGGERS = ['pointerdown', 'keydown'] as const;

/**
 * The page's one toast area, whose code (Radix Toast and its primitives) stays out of the first load:
 * nothing shows a toast before the visitor acts, so it loads at the first toast or the first pointer
 * or key press, and shows whatever was raised (or an F8 pressed) while it loaded. A failed load is
 * tried again at the next toast or press.
 */
export function DeferredToaster() {
  const [Loaded, setLoaded] = useState<ToasterComponent | null>(null);

  useEffect(() => {
    if (Loaded) return;
    let loading = false;
    const load = (event?: Event) => {
      if (event instanceof KeyboardEvent && event.code === VIEWPORT_HOTKEY) hotkeyPressedEarly = true;
      if (loading) return;
      loading = true;
      import(/* webpackChunkName: "toaster" */ './toaster').then(
        ({ ReadyToaster }) => setLoaded(() => ReadyToaster),
        () => {
          loading = false;
        },
      );
    };
    if (early.length > 0) load();
    const unsubscribe = subscribeToToasts(() => load());
    for (const trigger of TRIGGERS) window.addEventListener(trigger, load, { capture: true, passive: true });
    return () => {
      unsubscribe();
      for (const trigger of TRIGGERS) window.removeEventListener(trigger, load, { capture: true });
    };
  }, [Loaded]);

  return Loaded ? <Loaded onReady={handOverEarlyEvents} /> : null;
}
