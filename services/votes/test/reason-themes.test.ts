// reasonThemes() on the labelled sets (docs/reasons.md, "Themes: how they are found"). It needs no network:
// `unshare -rn npx jest --selectProjects unit --testPathPatterns reason-themes` passes.
import { MIN_REASONS_FOR_THEMES } from '@logovote/contracts';
import { MAX_THEMES, reasonThemes, type ReasonTheme } from '../src/reason-themes';
import { evaluate, loadLabelled, shuffled, type LabelledReason } from './reason-themes/evaluate';

const GOAL_PURITY = 0.7;
/** The goal: three of four labelled themes (75 %) recovered at GOAL_PURITY or better. */
const GOAL_RECOVERED_SHARE = 0.75;

const sets: [string, LabelledReason[]][] = [
  ['labelled', loadLabelled('labelled-reasons.json')],
  ['held-out', loadLabelled('held-out-reasons.json')],
];

describe.each(sets)('reasonThemes on the %s set', (_set, reasons) => {
  const themes = reasonThemes(reasons);

  test('recovers at least 3 of 4 labelled themes at 70 % purity or better', () => {
    const { labelled, recovered } = evaluate(reasons, themes);
    const pure = [...recovered.values()].filter((purity) => purity >= GOAL_PURITY);
    expect(pure.length).toBeGreaterThanOrEqual(Math.ceil(labelled.length * GOAL_RECOVERED_SHARE));
  });

  test('quotes one or two verbatim texts of the theme’s own members', () => {
    const textOf = new Map(reasons.map((reason) => [reason.name, reason.text]));
    for (const theme of themes) {
      expect(theme.quotes.length).toBeGreaterThanOrEqual(1);
      expect(theme.quotes.length).toBeLessThanOrEqual(2);
      const memberTexts = theme.members.map((name) => textOf.get(name));
      for (const quote of theme.quotes) expect(memberTexts).toContain(quote);
    }
  });

  test('puts each reason in at most one theme, counts its members and keeps the shape', () => {
    const names = new Set(reasons.map((reason) => reason.name));
    const members = themes.flatMap((theme) => theme.members);
    expect(new Set(members).size).toBe(members.length);
    for (const name of members) expect(names.has(name)).toBe(true);
    expect(themes.length).toBeLessThanOrEqual(MAX_THEMES);
    for (const theme of themes) {
      expect(theme.count).toBe(theme.members.length);
      expect(theme.count).toBeGreaterThanOrEqual(2);
      expect(theme.label).toMatch(/^[A-Z][a-z]*( [a-z]+){0,2}$/);
    }
    const order = (a: ReasonTheme, b: ReasonTheme) => b.count - a.count || (a.label < b.label ? -1 : 1);
    expect([...themes].sort(order)).toEqual(themes);
  });

  test('gives the same output across calls and for any input order', () => {
    expect(reasonThemes(reasons)).toEqual(themes);
    for (const seed of [1, 2, 3, 42, 2024]) expect(reasonThemes(shuffled(reasons, seed))).toEqual(themes);
  });
});

test(`gives no themes for fewer than ${MIN_REASONS_FOR_THEMES} reasons`, () => {
  const reasons = loadLabelled('labelled-reasons.json').filter((reason) => reason.theme === 'warm');
  expect(reasonThemes(reasons.slice(0, MIN_REASONS_FOR_THEMES - 1))).toEqual([]);
  expect(reasonThemes([])).toEqual([]);
  expect(reasonThemes(reasons.slice(0, MIN_REASONS_FOR_THEMES))).toHaveLength(1);
});

test('reads a negation and a clause about the other logos as the opposite', () => {
  const [theme] = reasonThemes(
    ['not readable', 'hard to read', "can't read the name", 'the others are easier to read', 'I like it'].map((text, index) => ({
      name: `r${index}`,
      text,
    })),
  );
  expect(theme).toMatchObject({ label: 'Hard to read', members: ['r0', 'r1', 'r2', 'r3'] });
});

test('ends a negation at "and"', () => {
  const themes = reasonThemes(
    ['not busy and warm', 'warm', 'not cluttered', 'nice', 'I like it'].map((text, index) => ({ name: `r${index}`, text })),
  );
  expect(themes.map((theme) => [theme.label, theme.members])).toEqual([['Clean and simple', ['r0', 'r2']]]);
});

test('groups reasons that share a word outside the lexicon under that word', () => {
  const texts = ['love the owl', 'That little owl!', 'Owls are wise', 'the owl and the mountain', 'mountains', 'nice', 'I like it'];
  const themes = reasonThemes(texts.map((text, index) => ({ name: `r${index}`, text })));
  expect(themes).toEqual([{ label: 'Owl', count: 4, quotes: ['love the owl', 'Owls are wise'], members: ['r0', 'r1', 'r2', 'r3'] }]);
});
