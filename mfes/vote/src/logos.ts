import type { Logo } from '@logovote/contracts';
import { logoPath } from '@logovote/contracts/logo-path';
import { useEffect } from 'react';

/** The box every logo is drawn in (square, the image contained): reserved before the image arrives. */
export const LOGO_BOX_PX = 512;

/**
 * Spec section 2: all logos are preloaded, so moving to the next one never waits for the network or the
 * decoder. The first logo is left to its <img> (fetched first, at high priority: it is the page's
 * largest paint); the others follow at the browser's normal image priority.
 */
export function usePreloadedLogos(logos: readonly Logo[] | undefined): void {
  useEffect(() => {
    for (const logo of (logos ?? []).slice(1)) {
      const image = new Image();
      image.decoding = 'async';
      image.src = logoPath(logo.filename);
      // Decoded ahead too; a broken image shows as such when its turn comes.
      image.decode().catch(() => undefined);
    }
  }, [logos]);
}
