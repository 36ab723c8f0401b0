import type { Logo } from '@logovote/contracts';
import { CheckIcon, cn, LogoOnBackdrop } from '@logovote/ui';

import { logoPath } from '@logovote/contracts/logo-path';

type Props = {
  logos: readonly Logo[];
  index: number;
  votedLogoId: string | null;
  onSelect: (index: number) => void;
};

/**
 * Every logo of the poll at a glance, under the carousel: a tap shows it. Each button is named by the
 * logo's name; the one shown is marked (aria-current), the voted one carries a check.
 */
export function ThumbnailRow({ logos, index, votedLogoId, onSelect }: Props) {
  return (
    <div role="group" aria-label="All logos" data-testid="logo-thumbnails" className="flex flex-wrap justify-center gap-2">
      {logos.map((logo, i) => {
        const current = i === index;
        const voted = logo.id === votedLogoId;
        return (
          <button
            key={logo.id}
            type="button"
            aria-label={logo.name}
            aria-current={current ? 'true' : undefined}
            data-logo-id={logo.id}
            data-voted={voted}
            onClick={() => onSelect(i)}
            className={cn(
              // 56 px: above the 44 px a finger needs.
              'relative size-14 rounded-lg border border-border bg-card shadow-sm outline-none transition-shadow',
              'hover:border-muted-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
              current && 'border-primary ring-2 ring-primary hover:border-primary',
              voted && !current && 'border-green-600',
            )}
          >
            {/* The button's name is the logo's: the picture adds nothing for a screen reader. */}
            <LogoOnBackdrop backdrop={logo.backdrop} followsChoice className="size-full rounded-[inherit] p-1.5">
              <img
                src={logoPath(logo.filename)}
                alt=""
                decoding="async"
                fetchPriority="low"
                draggable={false}
                className="size-full object-contain"
              />
            </LogoOnBackdrop>
            {voted && (
              <span className="absolute -top-1.5 -right-1.5 flex size-5 items-center justify-center rounded-full bg-green-600 text-white shadow">
                <CheckIcon className="size-3" strokeWidth={3} />
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
