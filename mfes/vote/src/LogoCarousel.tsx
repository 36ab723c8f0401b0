import type { Logo } from '@logovote/contracts';
import { ArrowLeftIcon, Button, CheckIcon, cn, LogoOnBackdrop } from '@logovote/ui';

import { logoPath } from '@logovote/contracts/logo-path';
import { LOGO_BOX_PX } from './logos';
import { ThumbnailRow } from './ThumbnailRow';
import { useSwipe } from './use-swipe';

type Props = {
  logos: readonly Logo[];
  index: number;
  votedLogoId: string | null;
  /** The first-visit hint of a touch screen, over the logo until the voter first moves. */
  showSwipeHint: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onSelect: (index: number) => void;
};

/**
 * One logo at a time at full size (spec section 2), in a square box reserved before the image arrives,
 * with its position ("2 of 4") and every logo as a thumbnail below, so that no option goes unseen.
 * Touch: swipe left for the next logo, right for the previous one. Mouse and keyboard: Previous and Next
 * (shown only where the main pointer is precise, i.e. not on phones and tablets), the dots, the
 * thumbnails, the arrow keys. Every control is at least 44 px square, as a finger needs.
 */
export function LogoCarousel({ logos, index, votedLogoId, showSwipeHint, onPrevious, onNext, onSelect }: Props) {
  const { track, handlers } = useSwipe<HTMLDivElement>((direction) => (direction === 'left' ? onNext() : onPrevious()));
  const logo = logos[index];
  const count = logos.length;
  const voted = logo !== undefined && logo.id === votedLogoId;

  return (
    <section aria-label="Logos" className="flex w-full flex-col items-center gap-3">
      {/*
        touch-pan-y: vertical drags scroll the page, horizontal ones are ours. On a short screen the logo gives
        up some size so that the thumbnails stay above the sticky bottom bar.
      */}
      <div
        data-testid="logo-stage"
        {...handlers}
        className="relative w-full max-w-[min(28rem,calc(100svh-24rem))] touch-pan-y touch-pinch-zoom select-none"
      >
        <div ref={track} className="transition-transform duration-200 ease-out">
          {logo && (
            <div
              key={logo.id}
              data-testid="current-logo"
              data-logo-id={logo.id}
              data-voted={voted}
              className={cn(
                'relative aspect-square overflow-hidden rounded-xl border border-border bg-card p-4 shadow-sm transition-shadow sm:p-6',
                voted && 'border-green-600 ring-2 ring-green-600',
              )}
            >
              <LogoOnBackdrop backdrop={logo.backdrop} followsChoice className="absolute inset-0 p-4 sm:p-6">
                <img
                  src={logoPath(logo.filename)}
                  alt={logo.name}
                  width={LOGO_BOX_PX}
                  height={LOGO_BOX_PX}
                  decoding="async"
                  // The first logo is the page's largest paint.
                  fetchPriority={index === 0 ? 'high' : 'auto'}
                  draggable={false}
                  className="size-full object-contain"
                />
              </LogoOnBackdrop>
              {voted && (
                <span
                  data-testid="voted-check"
                  className="absolute top-3 right-3 flex size-9 items-center justify-center rounded-full bg-green-600 text-white shadow-md"
                >
                  <CheckIcon className="size-5" strokeWidth={3} />
                  <span className="sr-only">Your vote</span>
                </span>
              )}
            </div>
          )}
        </div>
        {showSwipeHint && (
          <p
            data-testid="swipe-hint"
            className="pointer-events-none absolute inset-x-0 bottom-3 mx-auto flex w-fit items-center gap-2 rounded-full bg-foreground/85 px-4 py-2 text-sm font-medium text-background shadow-md"
          >
            <ArrowLeftIcon className="size-4" />
            Swipe to see all {count} logos
          </p>
        )}
      </div>

      {count > 1 && (
        <div className="flex w-full max-w-md items-center gap-2">
          {/* A narrow window with a mouse: the arrows alone, so the 44 px dots still fit beside them. */}
          <Button variant="outline" onClick={onPrevious} className="hidden h-11 min-w-11 max-sm:px-3 pointer-fine:inline-flex">
            <ArrowLeftIcon />
            <span className="max-sm:sr-only">Previous</span>
          </Button>
          <div className="flex flex-1 justify-center" data-testid="position-dots">
            {logos.map((item, i) => (
              <button
                key={item.id}
                type="button"
                aria-label={`Show logo ${i + 1} of ${count}`}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => onSelect(i)}
                className="group flex size-11 items-center justify-center rounded-full outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span
                  className={cn(
                    'h-2 w-2 rounded-full bg-muted-foreground/40 transition-all group-hover:bg-muted-foreground',
                    i === index && 'w-5 bg-primary group-hover:bg-primary',
                    item.id === votedLogoId && 'bg-green-600 group-hover:bg-green-600',
                  )}
                />
              </button>
            ))}
          </div>
          <Button variant="outline" onClick={onNext} className="hidden h-11 min-w-11 max-sm:px-3 pointer-fine:inline-flex">
            <span className="max-sm:sr-only">Next</span>
            <ArrowLeftIcon className="rotate-180" />
          </Button>
        </div>
      )}
      <p aria-live="polite" data-testid="logo-position" className="text-sm font-medium text-muted-foreground tabular-nums">
        <span className="sr-only">{logo?.name}, </span>
        <span data-testid="position-text">
          {index + 1} of {count}
        </span>
        {voted && <span className="sr-only">, your vote</span>}
      </p>
      {count > 1 && <ThumbnailRow logos={logos} index={index} votedLogoId={votedLogoId} onSelect={onSelect} />}
    </section>
  );
}
