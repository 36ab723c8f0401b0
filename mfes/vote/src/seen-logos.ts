import type { Logo } from '@logovote/contracts';
import { useState } from 'react';

/**
 * The logos this voter has had on screen in this visit, from the one shown first: how many are still
 * unseen, and whether all were seen (recorded with the vote, docs/analytics.md).
 */
export function useSeenLogos(logos: readonly Logo[], currentId: string | undefined) {
  const [seen, setSeen] = useState<ReadonlySet<string>>(() => new Set(currentId === undefined ? [] : [currentId]));
  // Updated while rendering (React's pattern for state derived from a change), so the count never lags a frame.
  if (currentId !== undefined && !seen.has(currentId)) setSeen(new Set(seen).add(currentId));
  const unseen = logos.filter((logo) => !seen.has(logo.id) && logo.id !== currentId).length;
  return { unseen, sawAll: unseen === 0 };
}
