/**
 * toast() from anywhere (the shell or any remote), shown in the shell's single <Toaster />.
 *
 * @logovote/ui is compiled into every build, so a module-level toast store here would be a
 * different object in each remote. Like the router (logovote:navigate), toasts therefore travel as
 * DOM events on `window`: the copies of this module in the shell and in the remotes need nothing in
 * common but the event name and its plain-data payload, which is the whole contract between them.
 */
export const TOAST_EVENT = 'logovote:toast';

export type ToastVariant = 'default' | 'destructive';

export type ToastOptions = {
  title: string;
  description?: string;
  variant?: ToastVariant;
};

export type ToastMessage = ToastOptions & { id: string };

export type ToastEvent = { type: 'show'; toast: ToastMessage } | { type: 'dismiss'; id: string };

function emit(detail: ToastEvent): void {
  window.dispatchEvent(new CustomEvent<ToastEvent>(TOAST_EVENT, { detail }));
}

let sequence = 0;

/** Shows a toast (it replaces the one showing, if any: one at a time). */
export function toast(options: ToastOptions): { id: string; dismiss: () => void } {
  // Unique across the separate copies of this module (shell, remotes).
  sequence += 1;
  const id = `${Date.now().toString(36)}-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
  emit({ type: 'show', toast: { ...options, id } });
  return { id, dismiss: () => emit({ type: 'dismiss', id }) };
}

/** Listens for toast events (the Toaster does). */
export function subscribeToToasts(listener: (event: ToastEvent) => void): () => void {
  const handle = (event: Event) => listener((event as CustomEvent<ToastEvent>).detail);
  window.addEventListener(TOAST_EVENT, handle);
  return () => window.removeEventListener(TOAST_EVENT, handle);
}
