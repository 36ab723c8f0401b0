import { cn, Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, SpinnerIcon, XIcon } from '@logovote/ui';
import { useId, type RefObject } from 'react';

import { FAVICON_SIZES, useFaviconBitmaps, type FaviconBitmaps } from './favicon-bitmaps';

export type LogoInContextProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** 'Logo A'... */
  label: string;
  /** The logo's image URL. */
  src: string;
  /** The logo's own backdrop (docs/logo-backdrops.md): its swatch comes first. */
  backdrop: Theme;
  /** The text of the mock-up's tab: the poll's question, or the product's name. */
  tabTitle: string;
  /** Where focus goes back when the dialog closes (the button that opened it). */
  returnFocusTo: RefObject<HTMLElement | null>;
};

type Theme = 'light' | 'dark';

/** Colours of a browser's tab strip in its light and dark themes (Chromium's). */
const TAB_STRIP: Record<Theme, { strip: string; activeTab: string; inactiveTab: string; toolbar: string; omnibox: string }> = {
  light: {
    strip: 'bg-[#dee1e6]',
    activeTab: 'bg-white text-[#3c4043]',
    inactiveTab: 'text-[#4d5156]',
    toolbar: 'bg-white',
    omnibox: 'bg-[#f1f3f4]',
  },
  dark: {
    strip: 'bg-[#202124]',
    activeTab: 'bg-[#35363a] text-[#e8eaed]',
    inactiveTab: 'text-[#bdc1c6]',
    toolbar: 'bg-[#35363a]',
    omnibox: 'bg-[#202124]',
  },
};

function TabMockup({ theme, label, tabTitle, bitmaps }: { theme: Theme; label: string; tabTitle: string; bitmaps: FaviconBitmaps }) {
  const colours = TAB_STRIP[theme];
  const { standard, sharp } = bitmaps[16];
  return (
    <figure className="flex min-w-0 flex-col gap-1">
      <div data-testid="tab-mockup" data-theme={theme} className="overflow-hidden rounded-lg border border-border">
        <div className={cn('flex items-end gap-1 px-2 pt-2', colours.strip)}>
          <div className={cn('flex h-8 max-w-56 min-w-0 flex-[3] items-center gap-2 rounded-t-lg px-3', colours.activeTab)}>
            {/* As a browser does: the bitmap that matches the screen's pixel density. */}
            <img
              data-testid="tab-favicon"
              src={standard}
              srcSet={`${standard} 1x, ${sharp} 2x`}
              width={16}
              height={16}
              alt={`${label} as the tab's icon`}
              className="size-4 shrink-0"
            />
            <span className="truncate text-xs">{tabTitle}</span>
            <XIcon className="ml-auto size-3 shrink-0" />
          </div>
          <div className={cn('flex h-8 max-w-40 min-w-0 flex-[2] items-center gap-2 px-3', colours.inactiveTab)}>
            <span aria-hidden="true" className="size-4 shrink-0 rounded-full border-2 border-current opacity-70" />
            <span className="truncate text-xs">New Tab</span>
          </div>
        </div>
        <div className={cn('px-2 py-1.5', colours.toolbar)}>
          <div className={cn('h-6 rounded-full', colours.omnibox)} />
        </div>
      </div>
      <figcaption className="text-xs text-muted-foreground">Browser tab, {theme} theme</figcaption>
    </figure>
  );
}

const DENSITIES = [
  { key: 'standard', name: 'Standard screen (1x)', short: '1x' },
  { key: 'sharp', name: 'Sharp screen (2x)', short: '2x' },
] as const;

type FaviconSwatchProps = { theme: Theme; label: string; bitmaps: FaviconBitmaps; isBackdrop: boolean };

/** The logo at 16 and 32 CSS pixels on one background, as standard and sharp screens show it. */
function FaviconSwatch({ theme, label, bitmaps, isBackdrop }: FaviconSwatchProps) {
  return (
    <figure
      data-testid="favicon-swatch"
      data-theme={theme}
      data-logo-backdrop={isBackdrop}
      className={cn(
        'flex min-w-0 flex-col gap-2 rounded-lg border p-3',
        theme === 'light' ? 'border-border bg-white text-neutral-700' : 'border-neutral-700 bg-neutral-900 text-neutral-300',
      )}
    >
      <figcaption className="text-xs font-medium">
        {theme === 'light' ? 'Light background' : 'Dark background'}
        {isBackdrop && <span className="font-normal"> (its backdrop)</span>}
      </figcaption>
      <div className="grid grid-cols-[auto_2rem_2rem] items-center justify-start gap-x-3 gap-y-2 text-xs">
        {DENSITIES.map((density) => (
          <div key={density.key} className="contents">
            <span>{density.short}</span>
            {FAVICON_SIZES.map((size) => (
              <img
                key={size}
                data-testid="favicon"
                data-size={size}
                data-density={density.key}
                src={bitmaps[size][density.key]}
                width={size}
                height={size}
                alt={`${label} at ${size} px on a ${theme} background, ${density.name.toLowerCase()}`}
                // The standard bitmap keeps its pixels on a sharp screen: each becomes a block, as a standard screen shows it.
                className={cn('justify-self-center', density.key === 'standard' && '[image-rendering:pixelated]')}
                style={{ width: size, height: size }}
              />
            ))}
          </div>
        ))}
        <span />
        <span className="justify-self-center">16 px</span>
        <span className="justify-self-center">32 px</span>
      </div>
    </figure>
  );
}

/** The logo at favicon sizes, on light and dark, and in a browser tab; loaded on demand (docs/logo-in-context.md). */
export default function LogoInContextDialog({ open, onOpenChange, label, src, backdrop, tabTitle, returnFocusTo }: LogoInContextProps) {
  const drawing = useFaviconBitmaps(src);
  const headingId = useId();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        data-testid="logo-in-context"
        data-bitmaps={drawing.status}
        className="max-w-xl"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        <DialogHeader className="pr-6">
          <DialogTitle>{label}, small</DialogTitle>
          <DialogDescription>
            How {label} holds up as a favicon: in a browser tab, and at 16 and 32 pixels on light and dark backgrounds.
          </DialogDescription>
        </DialogHeader>
        {drawing.status === 'drawing' ? (
          <p role="status" className="flex items-center justify-center gap-2 py-8 text-sm text-muted-foreground">
            <SpinnerIcon className="size-4" />
            Drawing...
          </p>
        ) : (
          <>
            <section aria-labelledby={`${headingId}-tab`} className="flex min-w-0 flex-col gap-2">
              <h3 id={`${headingId}-tab`} className="text-sm font-semibold">
                In a browser tab
              </h3>
              {(['light', 'dark'] as const).map((theme) => (
                <TabMockup key={theme} theme={theme} label={label} tabTitle={tabTitle} bitmaps={drawing.bitmaps} />
              ))}
            </section>
            <section aria-labelledby={`${headingId}-sizes`} className="flex min-w-0 flex-col gap-2">
              <h3 id={`${headingId}-sizes`} className="text-sm font-semibold">
                At favicon sizes
              </h3>
              <div className="grid grid-cols-2 gap-3">
                {/* The logo's own backdrop first: where it shows best; the other shows where it needs a variant. */}
                {(backdrop === 'light' ? (['light', 'dark'] as const) : (['dark', 'light'] as const)).map((theme) => (
                  <FaviconSwatch key={theme} theme={theme} label={label} bitmaps={drawing.bitmaps} isBackdrop={theme === backdrop} />
                ))}
              </div>
              <p className="text-xs text-muted-foreground">
                1x: a standard screen, one device pixel per CSS pixel. 2x: a sharp screen (most phones and laptops), two device pixels per
                CSS pixel.
              </p>
            </section>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
