import {
  allReasons,
  clearDueThemes,
  dueThemes,
  readLogoThemes,
  signalReasonGiven,
  storeLogoThemes,
  type DueThemes,
  type LogoThemes,
  type StoredReason,
} from '@logovote/models';
import { reasonThemes } from '../reason-themes';

/** Logos folded per pass: the rest wait for the next one. */
const LOGOS_PER_FOLD = 50;
/** Themes are found in a logo's newest reasons, at most this many (the page shows what most of them say). */
export const REASONS_PER_THEMES = 1_000;

/** The themes of some reasons as stored: the engine's, each quote one of the members' own words. */
const themesOf = (reasons: StoredReason[]) => reasonThemes(reasons.map((reason) => ({ name: reason.name, text: reason.text })));

/** A logo's newest reasons, at most REASONS_PER_THEMES. */
async function newestReasons(pollId: string, logoId: string): Promise<StoredReason[]> {
  const reasons: StoredReason[] = [];
  for await (const reason of allReasons(pollId, logoId)) {
    reasons.push(reason);
    if (reasons.length === REASONS_PER_THEMES) break;
  }
  return reasons;
}

/**
 * Finds one logo's themes again (docs/reasons.md, "Themes"): of all its reasons, and of each channel's
 * own. Stored only if no other folder stored newer ones meanwhile; its due records are cleared once the
 * themes are stored (or found unchanged), so a change made meanwhile is folded next time.
 */
async function foldLogo(due: DueThemes): Promise<boolean> {
  const before = await readLogoThemes(due.pollId, due.logoId);
  const reasons = await newestReasons(due.pollId, due.logoId);
  const byChannel = new Map<string, StoredReason[]>();
  for (const reason of reasons) {
    const members = byChannel.get(reason.channel ?? '');
    if (members) members.push(reason);
    else byChannel.set(reason.channel ?? '', [reason]);
  }
  const channels = [...byChannel]
    .filter(([channel]) => byChannel.size > 1 || channel !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([channel, members]) => ({ channel, reasons: members.length, themes: themesOf(members) }));
  const found = { pollId: due.pollId, logoId: due.logoId, reasons: reasons.length, themes: themesOf(reasons), channels };
  const shown = (themes: Pick<LogoThemes, 'reasons' | 'themes' | 'channels'>) =>
    JSON.stringify([themes.reasons, themes.themes, themes.channels]);
  const unchanged = before ? shown(before.value) === shown(found) : reasons.length === 0;
  if (!unchanged && (await storeLogoThemes(found, before?.seq ?? null)) === 'stale') return false;
  await clearDueThemes(due.records);
  return !unchanged;
}

/**
 * One pass of the themes folder: every logo whose reasons changed gets its themes found again, off the
 * request path, and open results pages are told (the live reasons event). Resolves with the polls whose
 * themes changed.
 */
export async function foldReasonThemes(): Promise<number> {
  const polls = new Set<string>();
  for (const due of await dueThemes(LOGOS_PER_FOLD)) if (await foldLogo(due)) polls.add(due.pollId);
  for (const pollId of polls) await signalReasonGiven(pollId);
  return polls.size;
}
