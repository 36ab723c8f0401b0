import { useState } from 'react';

/** Set once a voter has moved between logos on a touch screen: the hint is not shown again on this device. */
const SWIPE_HINT_DONE_KEY = 'logoVotingSwipeHintDone';

function hintDone(): boolean {
  try {
    return localStorage.getItem(SWIPE_HINT_DONE_KEY) !== null;
  } catch {
    return true;
  }
}

/**
 * The first-visit swipe hint of a touch screen (no Previous/Next buttons there): shown until the voter
 * first moves to another logo, then never again on this device. Storage that fails only means the hint
 * may show again.
 */
export function useSwipeHint(logoCount: number) {
  const [shown, setShown] = useState(() => logoCount > 1 && matchMedia('(pointer: coarse)').matches && !hintDone());
  const dismiss = () => {
    if (!shown) return;
    setShown(false);
    try {
      localStorage.setItem(SWIPE_HINT_DONE_KEY, '1');
    } catch {
      // Not remembered: the hint shows again on the next visit.
    }
  };
  return { shown, dismiss };
}
