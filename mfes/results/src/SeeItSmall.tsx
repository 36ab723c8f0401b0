import { Button, Icon } from '@logovote/ui';
import { lazy, Suspense, useRef, useState } from 'react';

import type { LogoInContextProps } from './LogoInContextDialog';

// The dialog's code is fetched when a visitor shows interest (pointer over or focus on the button): the results
// page's first load carries none of it.
const loadDialog = () => import(/* webpackChunkName: "logo-in-context" */ './LogoInContextDialog');
const LogoInContextDialog = lazy(loadDialog);

/** A browser window with a tab (Lucide's app-window). */
function BrowserTabIcon() {
  return (
    <Icon>
      <rect x="2" y="4" width="20" height="16" rx="2" />
      <path d="M10 4v4M2 8h20M6 4v4" />
    </Icon>
  );
}

type Props = Omit<LogoInContextProps, 'open' | 'onOpenChange' | 'returnFocusTo'>;

/** A result card's way to the logo at favicon sizes, on light and dark, and in a browser tab (docs/logo-in-context.md). */
export function SeeItSmall(props: Props) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const prefetch = () => void loadDialog();
  return (
    <>
      <Button
        ref={button}
        variant="outline"
        size="sm"
        aria-haspopup="dialog"
        data-testid="see-it-small"
        className="w-full"
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        <BrowserTabIcon />
        See it small<span className="sr-only"> ({props.label})</span>
      </Button>
      {requested && (
        <Suspense fallback={null}>
          <LogoInContextDialog {...props} open={open} onOpenChange={setOpen} returnFocusTo={button} />
        </Suspense>
      )}
    </>
  );
}
