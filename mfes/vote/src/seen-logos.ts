import type { Logo } from '@logovote/contracts';
import { rememberSeenLogos, seenLogos, unseenLogoCount } from '@logovote/web-client';
import { useEffect, useState } from 'react';

/**
 * The logos this voter has had on screen in poll `sessionId`, in this visit and the earlier ones of this browser
 * (web-client's seen-logos.ts keeps them per poll), with the one shown now: how many are still unseen, and
 * whether all were seen (recorded with the vote, docs/analytics.md).
 */
export function useSeenLogos(sessionId: string, logos: readonly Logo[], currentId: string | undefined) {
  const [seen, setSeen] = useState<ReadonlySet<string>>(() => {
    const remembered = seenLogos(sessionId);
    if (currentId !== undefined) remembered.add(currentId);
    return remembered;
  });
  // Updated while rendering (React's pattern for state derived from a change), so the count never lags a frame.
  if (currentId !== undefined && !seen.has(currentId)) setSeen(new Set(seen).add(currentId));
  useEffect(() => rememberSeenLogos(sessionId, seen), [sessionId, seen]);
  const unseen = unseenLogoCount(
    logos.map((logo) => logo.id),
    seen,
    currentId,
  );
  return { unseen, sawAll: unseen === 0 };
}
