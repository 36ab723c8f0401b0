import { api } from '@logovote/web-client';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';

/** How a logo's image fared in its HEAD check: not checked yet, can be fetched, or cannot. */
export type LogoCheck = 'pending' | 'ok' | 'broken';

/**
 * Whether the image of a logo can be fetched (spec section 7: HEAD /api/logos/{filename}). One check
 * per file name per page, shared by the card's thumbnail and the detail panel. The image cannot be
 * fetched when the server says it is gone (404) or the check fails (like every read, it is not retried).
 * `admin`: checked at /api/admin/logos/ (a poll hidden pending review, whose public images are refused).
 */
export function useLogoCheck(filename: string, enabled = true, admin = false): LogoCheck {
  const query = useQuery({
    queryKey: ['admin', 'logo-exists', filename, admin],
    queryFn: () => api.logoExists(filename, admin),
    enabled,
  });
  if (query.isError || query.data === false) return 'broken';
  return query.data === true ? 'ok' : 'pending';
}

/**
 * True once the element has come near the viewport, and from then on. The poll list checks the
 * thumbnails of the cards someone can see, not of every poll at once: a long list would otherwise
 * fire hundreds of HEAD requests together and run into the gateway's per-address rate limit.
 */
export function useSeenOnce<T extends Element>(): [(element: T | null) => void, boolean] {
  const [seen, setSeen] = useState(false);
  const seenRef = useRef(false);
  const observer = useRef<IntersectionObserver | null>(null);
  const ref = useCallback((element: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element || seenRef.current) return;
    observer.current = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        seenRef.current = true;
        setSeen(true);
        observer.current?.disconnect();
      },
      { rootMargin: '200px 0px' },
    );
    observer.current.observe(element);
  }, []);
  return [ref, seen];
}
