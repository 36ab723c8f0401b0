import { binomialHalfUpperTail, describeVerdict, judgeLead, leadPValue, SIGNIFICANCE_LEVEL, type LeadVerdict } from '../src/confidence';

/**
 * Reference values are exact: Σ C(n, j) / 2ⁿ over the tail, in rational arithmetic (Python's integers and
 * fractions), then rounded to 17 significant digits. scipy.stats.binomtest(k, n, 0.5).pvalue gives the same
 * two-sided values in floating point.
 */
const UPPER_TAILS: [n: number, k: number, exact: number][] = [
  [1, 1, 0.5],
  [4, 3, 5 / 16],
  [20, 14, 60460 / 1048576],
  [20, 10, 616666 / 1048576],
  [20, 7, 988116 / 1048576],
  [100, 60, 0.028443966820490395],
  [1000, 530, 0.031011597549181591],
  [10_000, 5100, 0.023292763852473693],
  [100_000, 50_500, 0.00079117993942579782],
];

/** Relative difference. */
const relative = (actual: number, expected: number) => Math.abs(actual - expected) / expected;

describe('binomialHalfUpperTail: P(X ≥ k) for X ~ Binomial(n, 1/2)', () => {
  it.each(UPPER_TAILS)('n = %d, k = %d', (n, k, exact) => {
    expect(relative(binomialHalfUpperTail(n, k), exact)).toBeLessThan(1e-12);
  });

  it('is 1 from k ≤ 0 and 0 beyond n, and every tail of a small n adds up', () => {
    expect(binomialHalfUpperTail(5, 0)).toBe(1);
    expect(binomialHalfUpperTail(5, -3)).toBe(1);
    expect(binomialHalfUpperTail(5, 6)).toBe(0);
    expect(binomialHalfUpperTail(0, 0)).toBe(1);
    // C(10, k) / 1024 for k = 0..10: each tail equals the sum of its terms.
    const terms = [1, 10, 45, 120, 210, 252, 210, 120, 45, 10, 1].map((c) => c / 1024);
    for (let k = 0; k <= 10; k += 1) {
      const exact = terms.slice(k).reduce((sum, term) => sum + term, 0);
      expect(relative(binomialHalfUpperTail(10, k), exact)).toBeLessThan(1e-12);
    }
  });

  it('neither overflows nor underflows into nonsense at a million votes', () => {
    // P(X ≥ m + 1) for n = 2m is (1 − C(2m, m) / 4^m) / 2, and C(2m, m) / 4^m = (1 − 1/(8m) + 1/(128m²) − …) / √(πm).
    const m = 500_000;
    const central = (1 - 1 / (8 * m) + 1 / (128 * m * m)) / Math.sqrt(Math.PI * m);
    expect(relative(binomialHalfUpperTail(2 * m, m + 1), (1 - central) / 2)).toBeLessThan(1e-12);
    // A lead of 200 000 votes: far below the smallest double.
    expect(binomialHalfUpperTail(1_000_000, 600_000)).toBe(0);
    expect(binomialHalfUpperTail(1_000_000, 400_000)).toBe(1);
  });
});

describe('leadPValue: the two-sided exact binomial test of the leader against the runner-up', () => {
  it.each([
    // [leader, runner-up, p]: p = 2 · P(X ≥ leader) with n = leader + runner-up.
    [1, 0, 1],
    [3, 1, 0.625],
    [5, 0, 0.0625],
    [6, 0, 0.03125],
    [14, 6, 2 * (60460 / 1048576)],
    [60, 40, 2 * 0.028443966820490395],
    [28, 12, 0.016589003374974709],
    [5100, 4900, 2 * 0.023292763852473693],
  ])('%d against %d', (leader, runnerUp, exact) => {
    expect(relative(leadPValue(leader, runnerUp), exact)).toBeLessThan(1e-12);
    // The order of the two does not matter.
    expect(leadPValue(runnerUp, leader)).toBe(leadPValue(leader, runnerUp));
  });

  it('is 1 for a tie, with or without votes', () => {
    expect(leadPValue(0, 0)).toBe(1);
    expect(leadPValue(7, 7)).toBe(1);
    expect(leadPValue(100_000, 100_000)).toBe(1);
  });
});

describe('judgeLead', () => {
  it('has no verdict without votes, or with one logo', () => {
    expect(judgeLead([])).toEqual({ kind: 'no-votes' });
    expect(judgeLead([0, 0, 0])).toEqual({ kind: 'no-votes' });
    expect(judgeLead([0])).toEqual({ kind: 'no-votes' });
    expect(judgeLead([12])).toEqual({ kind: 'single', votes: 12 });
  });

  it('counts every logo tied at the top', () => {
    expect(judgeLead([3, 3])).toEqual({ kind: 'tie', tied: 2, votes: 3 });
    expect(judgeLead([1, 4, 4, 4])).toEqual({ kind: 'tie', tied: 3, votes: 4 });
  });

  it('calls a lead clear only below the 5% level, comparing the leader with the runner-up in any order of counts', () => {
    expect(judgeLead([1, 5, 0])).toMatchObject({ kind: 'too-close', leader: 5, runnerUp: 1 });
    expect(judgeLead([0, 5])).toMatchObject({ kind: 'too-close', pValue: expect.closeTo(0.0625, 12) });
    expect(judgeLead([6, 0])).toMatchObject({ kind: 'clear', pValue: expect.closeTo(0.03125, 12) });
    expect(judgeLead([6, 14, 2, 1])).toMatchObject({ kind: 'too-close', leader: 14, runnerUp: 6 });
    expect(judgeLead([12, 28])).toMatchObject({ kind: 'clear', leader: 28, runnerUp: 12 });
    expect(judgeLead([50_400, 49_600, 3])).toMatchObject({ kind: 'clear', leader: 50_400, runnerUp: 49_600 });
    expect(judgeLead([50_200, 49_800, 3])).toMatchObject({ kind: 'too-close', leader: 50_200, runnerUp: 49_800 });
  });
});

describe('describeVerdict', () => {
  const LABELS = ['Logo A', 'Logo B', 'Logo C', 'Logo D'];
  const say = (verdict: LeadVerdict) => describeVerdict(verdict, LABELS);

  it('says each verdict in one plain line', () => {
    expect(say({ kind: 'no-votes' })).toEqual({ headline: 'No votes yet', line: 'There is no leader until people vote.' });
    expect(say({ kind: 'single', votes: 3 })).toEqual({
      headline: 'Only one logo',
      line: 'Logo A is the only logo in this poll, so there is nothing to compare it with.',
    });
    expect(say({ kind: 'tie', tied: 2, votes: 1 })).toEqual({
      headline: 'Too close to call',
      line: 'Logo A and Logo B are tied with 1 vote each.',
    });
    expect(say({ kind: 'tie', tied: 4, votes: 9 }).line).toBe('Logo A, Logo B, Logo C and Logo D are tied with 9 votes each.');
    expect(say(judgeLead([3, 1]))).toEqual({
      headline: 'Too close to call',
      line: 'Logo A leads Logo B by 2 votes, but a gap this large would come up by chance 63% of the time if both were equally liked.',
    });
    expect(say(judgeLead([28, 12]))).toEqual({
      headline: 'Clear lead',
      line: 'Logo A leads Logo B by 16 votes; a gap this large would come up by chance less than 5% of the time if both were equally liked.',
    });
  });

  it('words how often chance makes the gap: thresholds below 5%, whole percents above', () => {
    const line = (pValue: number) =>
      say({ kind: pValue < SIGNIFICANCE_LEVEL ? 'clear' : 'too-close', leader: 2, runnerUp: 1, pValue }).line;
    expect(line(0.0004)).toContain('less than 0.1% of the time');
    expect(line(0.009)).toContain('less than 1% of the time');
    expect(line(0.049)).toContain('less than 5% of the time');
    expect(line(0.05)).toContain('chance 5% of the time');
    expect(line(0.994)).toContain('chance 99% of the time');
    expect(line(0.996)).toContain('chance almost every time');
    expect(line(1)).toContain('chance every time');
    expect(line(0.05)).toMatch(/^Logo A leads Logo B by 1 vote, but /);
  });
});

describe('no correction for 3 or 4 logos: the chance of a false clear lead stays under 5%', () => {
  /** ln(n!) for small n, summed. */
  const logFactorial = (n: number) => {
    let sum = 0;
    for (let i = 2; i <= n; i += 1) sum += Math.log(i);
    return sum;
  };

  /** Every way n votes can fall on shares.length logos, with its multinomial probability. */
  function* outcomes(n: number, shares: readonly number[], prefix: number[] = []): Generator<[number[], number]> {
    if (prefix.length === shares.length - 1) {
      const counts = [...prefix, n - prefix.reduce((sum, c) => sum + c, 0)];
      const log = counts.reduce((sum, c, i) => sum + c * Math.log(shares[i]!) - logFactorial(c), logFactorial(n));
      yield [counts, Math.exp(log)];
      return;
    }
    const left = n - prefix.reduce((sum, c) => sum + c, 0);
    for (let c = 0; c <= left; c += 1) yield* outcomes(n, shares, [...prefix, c]);
  }

  /** The chance of a 'clear' verdict for a logo that is not the one most liked (all of `best` are tied for it). */
  function falseClearLead(n: number, shares: readonly number[]): number {
    const top = Math.max(...shares);
    let chance = 0;
    for (const [counts, probability] of outcomes(n, shares)) {
      if (judgeLead(counts).kind !== 'clear') continue;
      const leader = counts.indexOf(Math.max(...counts));
      const uniqueBest = shares.filter((share) => share === top).length === 1 && shares[leader] === top;
      if (!uniqueBest) chance += probability;
    }
    return chance;
  }

  it.each([
    [[1 / 2, 1 / 2]],
    [[1 / 3, 1 / 3, 1 / 3]],
    [[1 / 4, 1 / 4, 1 / 4, 1 / 4]],
    [[0.45, 0.45, 0.1]],
    [[0.3, 0.3, 0.3, 0.1]],
    [[0.4, 0.4, 0.1, 0.1]],
  ])('with true shares %j', (shares) => {
    for (const n of [10, 25, 40]) expect(falseClearLead(n, shares)).toBeLessThan(SIGNIFICANCE_LEVEL);
  });
});
