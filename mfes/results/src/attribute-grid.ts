import type { AttributeCounts } from '@logovote/contracts';
import { attributeLeaderSentence } from '@logovote/contracts/attribute-question';
import type { RankedLogo } from '@logovote/contracts/ranking';
import { judgePoll, percentText } from '@logovote/contracts/verdict';

/** The call on an attribute, in the words of the main result's verdict (docs/confidence.md). */
export type AttributeCall = 'clear' | 'leads' | 'too close' | 'no answers';

export interface AttributeRow {
  name: string;
  /** One cell per logo, in the page's order: its share of the answers that picked a logo (whole percent). */
  cells: { logoId: string; label: string; answers: number; percent: number }[];
  cantSay: number;
  /** Answers that picked a logo ("Can't say" is counted apart). */
  answers: number;
  call: AttributeCall;
  /** The logo that fits the attribute best, with its chance to be the favourite, when one leads. */
  leader?: { logoId: string; label: string; chance: string };
}

/**
 * One attribute's row of the grid: the shares of the answers that picked a logo, and the call of the same
 * verdict as the poll's (judged as closed: no estimate of the answers to settle it).
 */
export function attributeRow(name: string, ranked: readonly RankedLogo[], counts: AttributeCounts): AttributeRow {
  const answersOf = new Map(counts.logos.map((logo) => [logo.logoId, logo.answers]));
  const answers = ranked.reduce((sum, { logo }) => sum + (answersOf.get(logo.id) ?? 0), 0);
  const cells = ranked.map(({ logo, label }) => {
    const picked = answersOf.get(logo.id) ?? 0;
    return { logoId: logo.id, label, answers: picked, percent: answers > 0 ? Math.round((picked / answers) * 100) : 0 };
  });
  const standing = [...cells].sort((a, b) => b.answers - a.answers);
  const verdict = judgePoll(
    standing.map((cell) => cell.answers),
    'closed',
  );
  const row = { name, cells, cantSay: counts.cantSay, answers };
  if (verdict.kind === 'no-votes') return { ...row, call: 'no answers' };
  if (verdict.kind === 'tie') return { ...row, call: 'too close' };
  const leader = {
    logoId: standing[0]!.logoId,
    label: standing[0]!.label,
    chance: percentText(verdict.kind === 'single' ? 1 : verdict.chances[0]!),
  };
  return { ...row, call: verdict.kind === 'clear' || verdict.kind === 'single' ? 'clear' : 'leads', leader };
}

/**
 * The sentence under the grid for an attribute whose leader is not the logo picked most often ("Logo C is
 * picked most often, but Logo A looks most trustworthy: 81% likely"); none when they agree or either is unclear.
 */
export function differingLeaderSentence(row: AttributeRow, ranked: readonly RankedLogo[]): string | null {
  const pollLeader = ranked[0];
  const runnerUp = ranked[1];
  if (!pollLeader?.isWinner || (runnerUp && runnerUp.logo.voteCount === pollLeader.logo.voteCount)) return null;
  if (!row.leader || row.leader.logoId === pollLeader.logo.id) return null;
  return attributeLeaderSentence(pollLeader.label, row.leader.label, row.name, row.leader.chance);
}
