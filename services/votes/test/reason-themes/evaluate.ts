// Scores reasonThemes() on a labelled set (docs/reasons.md, "Themes: how they are found"): an output theme's
// majority label is the label most of its members carry (ties: the first in code-unit order, noise last);
// its purity is the share of its members that carry it; a labelled theme is recovered when some output
// theme's majority label is it; a labelled reason is placed when it is in an output theme whose majority
// label is its own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReasonForThemes, ReasonTheme } from '../../src/reason-themes';

export interface LabelledReason extends ReasonForThemes {
  /** The theme its writer meant; null for a reason that belongs to none ("nice"). */
  theme: string | null;
}

export interface ThemeScore {
  label: string;
  count: number;
  /** Null when most members are noise. */
  majority: string | null;
  purity: number;
  quotesVerbatim: boolean;
}

export interface Evaluation {
  labelled: string[];
  themes: ThemeScore[];
  /** Labelled themes that some output theme has as its majority label, with that theme's best purity. */
  recovered: Map<string, number>;
  /** Reasons with a labelled theme, and how many of them are in an output theme whose majority label is theirs. */
  themed: number;
  placed: number;
}

export const loadLabelled = (file: 'labelled-reasons.json' | 'held-out-reasons.json'): LabelledReason[] =>
  (JSON.parse(readFileSync(join(__dirname, file), 'utf8')) as { reasons: LabelledReason[] }).reasons;

export function evaluate(reasons: readonly LabelledReason[], themes: readonly ReasonTheme[]): Evaluation {
  const byName = new Map(reasons.map((reason) => [reason.name, reason]));
  const scores = themes.map((theme): ThemeScore => {
    const counts = new Map<string | null, number>();
    for (const name of theme.members) counts.set(byName.get(name)!.theme, (counts.get(byName.get(name)!.theme) ?? 0) + 1);
    const [majority, top] = [...counts].sort(([a, x], [b, y]) => y - x || (a === null ? 1 : b === null ? -1 : a < b ? -1 : 1))[0]!;
    const memberTexts = new Set(theme.members.map((name) => byName.get(name)!.text));
    return {
      label: theme.label,
      count: theme.count,
      majority,
      purity: top / theme.members.length,
      quotesVerbatim: theme.quotes.length > 0 && theme.quotes.every((quote) => memberTexts.has(quote)),
    };
  });
  const recovered = new Map<string, number>();
  for (const score of scores) {
    if (score.majority !== null) recovered.set(score.majority, Math.max(recovered.get(score.majority) ?? 0, score.purity));
  }
  const labelled = [...new Set(reasons.flatMap((reason) => (reason.theme === null ? [] : [reason.theme])))].sort();
  const majorityOf = new Map(themes.flatMap((theme, index) => theme.members.map((name) => [name, scores[index]!.majority])));
  const themed = reasons.filter((reason) => reason.theme !== null);
  const placed = themed.filter((reason) => majorityOf.get(reason.name) === reason.theme).length;
  return { labelled, themes: scores, recovered, themed: themed.length, placed };
}

/** A deterministic shuffle (a linear congruential generator from a seed), so that a failing order can be replayed. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed >>> 0;
  for (let index = copy.length - 1; index > 0; index -= 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
