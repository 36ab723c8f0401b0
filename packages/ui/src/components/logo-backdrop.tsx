import { useId, useSyncExternalStore, type ComponentProps } from 'react';

import { cn } from '../lib/cn';

/** The backdrops a logo can be shown on (a logo's own is 'light' or 'dark': LogoBackdrop in the contracts). */
type Backdrop = 'light' | 'dark' | 'checkerboard';
/** The viewer's choice: each logo on its own backdrop ('auto'), or every logo on one. */
type BackdropChoice = 'auto' | Backdrop;

/**
 * The colours are the contracts' BACKDROP_COLOURS (white, zinc-900), which the backdrop rule measures contrast
 * against; the checkerboard is the image editors' sign of transparency.
 */
const BACKDROP_CLASSES: Record<Backdrop, string> = {
  light: 'bg-white',
  dark: 'bg-zinc-900',
  checkerboard: 'bg-white bg-[repeating-conic-gradient(#d4d4d8_0_25%,#ffffff_0_50%)] bg-[length:16px_16px] bg-center',
};

const BACKDROP_CHOICE_KEY = 'logovote.logoBackdrop';
const CHOICES: readonly { value: BackdropChoice; label: string }[] = [
  { value: 'auto', label: 'Auto' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'checkerboard', label: 'Checkerboard' },
];
/** Tells this page's other subscribers (the storage event reaches only other pages). */
const CHANGE_EVENT = 'logovote:logo-backdrop';

function readChoice(): BackdropChoice {
  try {
    const stored = localStorage.getItem(BACKDROP_CHOICE_KEY);
    return CHOICES.find((choice) => choice.value === stored)?.value ?? 'auto';
  } catch {
    // Storage refused (a private window's settings): every logo on its own backdrop.
    return 'auto';
  }
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

function storeChoice(choice: BackdropChoice): void {
  try {
    localStorage.setItem(BACKDROP_CHOICE_KEY, choice);
  } catch {
    // Not remembered; the page still shows the choice until it is left.
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/** The viewer's backdrop choice, remembered in this browser; every component using it follows a change at once. */
function useBackdropChoice(): [BackdropChoice, (choice: BackdropChoice) => void] {
  const choice = useSyncExternalStore(subscribe, readChoice, () => 'auto' as const);
  return [choice, storeChoice];
}

type LogoOnBackdropProps = ComponentProps<'div'> & {
  /** The logo's own backdrop (the session view's `backdrop`). */
  backdrop: 'light' | 'dark';
  /** Follow the viewer's choice (the voting and results pages); otherwise the logo's own backdrop. */
  followsChoice?: boolean;
};

/** A logo (the child <img>) on the backdrop that shows it (docs/logo-backdrops.md). */
export function LogoOnBackdrop({ backdrop, followsChoice = false, className, ...props }: LogoOnBackdropProps) {
  const [choice] = useBackdropChoice();
  const shown: Backdrop = followsChoice && choice !== 'auto' ? choice : backdrop;
  return <div data-slot="logo-backdrop" data-backdrop={shown} className={cn(BACKDROP_CLASSES[shown], className)} {...props} />;
}

/**
 * The viewer's choice of backdrop for every logo on the page: a labelled group of radio buttons (Tab reaches
 * it, the arrow keys choose), remembered in this browser.
 */
export function BackdropToggle({ className, ...props }: ComponentProps<'fieldset'>) {
  const [choice, setChoice] = useBackdropChoice();
  const name = useId();
  return (
    <fieldset
      data-testid="backdrop-toggle"
      className={cn('flex flex-wrap items-center justify-center gap-2 text-sm', className)}
      {...props}
    >
      <legend className="float-left mr-1 text-muted-foreground">Logo background</legend>
      <div className="inline-flex rounded-full border border-border bg-muted p-0.5">
        {CHOICES.map((item) => (
          <label
            key={item.value}
            className={cn(
              'relative flex min-h-9 cursor-pointer pointer-coarse:min-h-11 items-center rounded-full px-3 text-muted-foreground transition-colors hover:text-foreground',
              'has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
              choice === item.value && 'bg-background font-medium text-foreground shadow-sm',
            )}
          >
            <input
              type="radio"
              name={name}
              value={item.value}
              checked={choice === item.value}
              onChange={() => setChoice(item.value)}
              className="sr-only"
            />
            {item.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
