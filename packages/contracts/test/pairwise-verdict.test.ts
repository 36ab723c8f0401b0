import { fitStrengths, judgePairs, majoritiesCircle, pairsOf, pairWins, winRates } from '../src/pairwise-verdict';

/** `voters` voters with one pattern each: ['111', 12] is 12 voters who picked each pair's first logo. */
const patterns = (...entries: [string, number][]) => entries.map(([pattern, voters]) => ({ pattern, voters }));

describe('head-to-head choices', () => {
  it("lists a poll's pairs in one order: 0-1, 0-2, 0-3, 1-2, 1-3, 2-3", () => {
    expect(pairsOf(3)).toEqual([
      [0, 1],
      [0, 2],
      [1, 2],
    ]);
    expect(pairsOf(4)).toHaveLength(6);
  });

  it('counts the wins in each pair and each logo’s win rate, leaving out pairs not chosen', () => {
    const wins = pairWins(3, patterns(['12-', 3], ['2-1', 1]));
    expect(wins).toEqual([
      [0, 3, 0],
      [1, 0, 1],
      [3, 0, 0],
    ]);
    // Logo 0: 3 of 7; logo 1: 2 of 5; logo 2: 3 of 4.
    expect(winRates(wins)).toEqual([3 / 7, 2 / 5, 3 / 4]);
    expect(winRates(pairWins(3, []))).toEqual([null, null, null]);
  });

  it('fits strengths in the order of the wins, logo 0 at 0', () => {
    const { strengths } = fitStrengths(pairWins(3, patterns(['111', 20], ['222', 5])));
    expect(strengths[0]).toBe(0);
    expect(strengths[1]).toBeLessThan(0);
    expect(strengths[2]).toBeLessThan(strengths[1]!);
  });
});

describe('the head-to-head verdict', () => {
  it('has no favourite before any choice', () => {
    expect(judgePairs(3, []).verdict).toEqual({ kind: 'no-choices' });
    expect(judgePairs(4, patterns(['------', 3])).verdict).toEqual({ kind: 'no-choices' });
  });

  it('calls a logo every voter picks over every other the clear favourite, and ranks the rest', () => {
    // Pairs 0-1, 0-2, 1-2: logo 2 beats both, logo 1 beats 0.
    const { order, verdict } = judgePairs(3, patterns(['222', 25], ['221', 5]));
    expect(order).toEqual([2, 1, 0]);
    expect(verdict.kind).toBe('clear');
    if (verdict.kind !== 'clear') return;
    expect(verdict.chances[0]).toBeGreaterThanOrEqual(0.95);
    expect(verdict.chances.reduce((sum, chance) => sum + chance, 0)).toBeCloseTo(1, 10);
  });

  it('says there is no single favourite when the majorities go round in a circle', () => {
    // A over B, C over A, B over C, each 20 to 10.
    const circle = patterns(['121', 10], ['112', 5], ['211', 5], ['221', 5], ['122', 5]);
    const wins = pairWins(3, circle);
    expect([wins[0]![1], wins[1]![0], wins[1]![2], wins[2]![1], wins[2]![0], wins[0]![2]]).toEqual([20, 10, 20, 10, 20, 10]);
    expect(majoritiesCircle(wins)).toBe(true);
    expect(judgePairs(3, circle).verdict.kind).toBe('circle');
  });

  it('finds no circle where one logo beats every other, whatever the others do among themselves', () => {
    // Logo 3 beats 0, 1 and 2; 0 over 1, 1 over 2, 2 over 0.
    const wins = [
      [0, 5, 2, 1],
      [2, 0, 5, 1],
      [5, 2, 0, 1],
      [6, 6, 6, 0],
    ];
    expect(majoritiesCircle(wins)).toBe(false);
  });

  it('leaves an even split to the chances: a tie, not a circle', () => {
    const { verdict } = judgePairs(3, patterns(['11-', 6], ['22-', 6]));
    expect(verdict.kind).toBe('tie');
  });

  it('gives the same chances on every call, as every device shows them', () => {
    const choices = patterns(['121', 7], ['111', 9], ['212', 4]);
    expect(judgePairs(3, choices)).toEqual(judgePairs(3, choices));
  });
});
