import { useEffect, useState } from 'react';

/**
 * True once the page has loaded and the browser is idle: voters' words are not part of the first paint
 * (the performance budgets), so their reads wait until then.
 */
export function useAfterPageLoad(): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let idle: number | undefined;
    const start = () => {
      idle = window.requestIdleCallback
        ? window.requestIdleCallback(() => setLoaded(true), { timeout: 2_000 })
        : window.setTimeout(() => setLoaded(true), 0);
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      if (idle !== undefined) {
        if (window.cancelIdleCallback) window.cancelIdleCallback(idle);
        else window.clearTimeout(idle);
      }
    };
  }, []);
  return loaded;
}
