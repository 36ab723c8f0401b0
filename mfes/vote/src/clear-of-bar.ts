import { useEffect, type RefObject } from 'react';

/**
 * The voting view's bottom bar is sticky, so what the page scrolls under it is hidden. While it is shown, the
 * page's bottom scroll padding is the bar's height (kept as the bar grows or shrinks): whatever the browser
 * scrolls into view, a focused field or scrollIntoView, then stops above the bar.
 */
export function useScrollPaddingForBar(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = bar.current;
    if (!element) return undefined;
    const root = document.documentElement;
    const update = () => root.style.setProperty('scroll-padding-bottom', `${element.offsetHeight}px`);
    const observer = new ResizeObserver(update);
    observer.observe(element);
    update();
    return () => {
      observer.disconnect();
      root.style.removeProperty('scroll-padding-bottom');
    };
  }, [bar]);
}

/** Space left between the element and the edge it is kept from, in CSS pixels. */
const MARGIN_PX = 8;

/**
 * Scrolls the page just enough for `element` to be wholly in sight: above the bottom scroll padding (the bar)
 * and above the on-screen keyboard, which shrinks the visual viewport rather than the page on most phones.
 * An element taller than the room shows its top.
 */
function scrollClear(element: HTMLElement) {
  const box = element.getBoundingClientRect();
  const viewport = window.visualViewport;
  const visibleTop = viewport ? viewport.offsetTop : 0;
  const padding = parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom) || 0;
  const visibleBottom = Math.min(viewport ? viewport.offsetTop + viewport.height : window.innerHeight, window.innerHeight - padding);
  const below = box.bottom + MARGIN_PX - visibleBottom;
  if (below <= 0) return;
  window.scrollBy({ top: Math.min(below, box.top - MARGIN_PX - visibleTop), behavior: 'instant' });
}

/**
 * While `active` (a field in `element` has the keyboard), keeps all of `element` in sight, its counter and
 * messages too: when it becomes active, and whenever the viewport changes (the on-screen keyboard opening).
 */
export function useKeptInSight(element: RefObject<HTMLElement | null>, active: boolean) {
  useEffect(() => {
    if (!active) return undefined;
    const keep = () => {
      if (element.current) scrollClear(element.current);
    };
    // After the browser's own scroll to the focused field.
    const frame = requestAnimationFrame(keep);
    window.visualViewport?.addEventListener('resize', keep);
    window.addEventListener('resize', keep);
    return () => {
      cancelAnimationFrame(frame);
      window.visualViewport?.removeEventListener('resize', keep);
      window.removeEventListener('resize', keep);
    };
  }, [element, active]);
}
