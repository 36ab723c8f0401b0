import { useEffect, type RefObject } from 'react';

/** On <html>, while the voting view shows: its bottom bar's height, for what is kept clear of the bar. */
const BAR_HEIGHT_PROPERTY = '--vote-bar-height';

/**
 * The voting view's bottom bar is sticky, so what the page scrolls under it is hidden. While it is shown, the
 * page knows the bar's height (kept as the bar grows or shrinks). Not as the page's scroll padding: the browser
 * would then scroll the page whenever a button of the bar itself takes the keyboard, to lift it out of that padding.
 */
export function useBarHeight(bar: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = bar.current;
    if (!element) return undefined;
    const root = document.documentElement;
    const update = () => root.style.setProperty(BAR_HEIGHT_PROPERTY, `${element.offsetHeight}px`);
    const observer = new ResizeObserver(update);
    observer.observe(element);
    update();
    return () => {
      observer.disconnect();
      root.style.removeProperty(BAR_HEIGHT_PROPERTY);
    };
  }, [bar]);
}

/** Space left between the element and the edge it is kept from, in CSS pixels. */
const MARGIN_PX = 8;

/**
 * Scrolls the page just enough for `element` to be wholly in sight: above the voting view's bar (when shown)
 * and above the on-screen keyboard, which shrinks the visual viewport rather than the page on most phones.
 * An element taller than the room shows its top.
 */
export function scrollClearOfBar(element: HTMLElement) {
  const box = element.getBoundingClientRect();
  const viewport = window.visualViewport;
  const visibleTop = viewport ? viewport.offsetTop : 0;
  const bar = parseFloat(document.documentElement.style.getPropertyValue(BAR_HEIGHT_PROPERTY)) || 0;
  const visibleBottom = Math.min(viewport ? viewport.offsetTop + viewport.height : window.innerHeight, window.innerHeight - bar);
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
      if (element.current) scrollClearOfBar(element.current);
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
