import {
  CLEAR_FAVOURITE_CHANCE,
  MAX_STATED_RANGE_RATIO,
  OUT_OF_RACE_CHANCE,
  chanceSentence,
  contendersOf,
  estimateVotesToSettle,
  favouriteChances,
  isClearFavourite,
  judgePoll,
  percentText,
  statedVotesToSettle,
  verdictSentence,
  winnerQualifier,
  type Verdict,
} from '@logovote/contracts/verdict';

const LABELS = ['Logo A', 'Logo B', 'Logo C', 'Logo D'];

/**
 * P(p₁ > p₂) for (p₁, p₂) ~ Dirichlet(a + 1, b + 1) is P(X ≤ a) for X ~ Binomial(a + b + 1, ½) (whole a and b):
 * summed exactly in logarithms.
 */
function exactTwoLogoChance(a: number, b: number): number {
  const n = a + b + 1;
  const logFactorial = [0];
  for (let k = 1; k <= n; k += 1) logFactorial.push(logFactorial[k - 1]! + Math.log(k));
  let sum = 0;
  for (let j = 0; j <= a; j += 1) sum += Math.exp(logFactorial[n]! - logFactorial[j]! - logFactorial[n - j]! - n * Math.LN2);
  return sum;
}

/**
 * Exact chances for 3 and 4 logos: the integral of x^(a−1) e^(−x) / (a − 1)! · Π (1 − e^(−x) Σ_{k<a_j} x^k / k!)
 * expanded into terms x^m e^(−s x), each integrating to m! / s^(m+1), in rational arithmetic (Python's fractions).
 */
const EXACT_CHANCES: [counts: number[], chances: number[]][] = [
  [
    [1, 0, 0],
    [0.6111111111111112, 0.19444444444444445, 0.19444444444444445],
  ],
  [
    [2, 1, 0],
    [0.6365740740740741, 0.2847222222222222, 0.0787037037037037],
  ],
  [
    [3, 3, 1],
    [0.4568377533912513, 0.4568377533912513, 0.08632449321749733],
  ],
  [
    [5, 2, 2],
    [0.7604726318396586, 0.11976368408017071, 0.11976368408017071],
  ],
  [
    [7, 5, 3, 1],
    [0.6594017881613015, 0.26385170299697613, 0.06915628545410973, 0.007590223387612642],
  ],
  [
    [10, 9, 2, 0],
    [0.5863610054449659, 0.41050001480738324, 0.0030592002973867504, 7.977945026408755e-5],
  ],
  [
    [12, 6, 3, 1],
    [0.9095221623838723, 0.08198905392509856, 0.007932773624179566, 0.0005560100668495529],
  ],
];

describe('favouriteChances: each logo’s chance to be the most preferred', () => {
  it.each([
    [0, 0],
    [1, 0],
    [2, 0],
    [3, 1],
    [7, 5],
    [14, 6],
    [45, 38],
    [60, 40],
    [530, 470],
    [5100, 4900],
    [1000, 1],
    [300_000, 299_000],
  ])('two logos, %d votes to %d: within 10⁻⁴ of the exact value', (a, b) => {
    const [first, second] = favouriteChances([a, b]);
    expect(Math.abs(first! - exactTwoLogoChance(a, b))).toBeLessThan(1e-4);
    expect(Math.abs(second! - exactTwoLogoChance(b, a))).toBeLessThan(1e-4);
  });

  it.each(EXACT_CHANCES)('%j: within 10⁻⁵ of the exact values', (counts, exact) => {
    favouriteChances(counts).forEach((chance, i) => expect(Math.abs(chance - exact[i]!)).toBeLessThan(1e-5));
  });

  it('gives equal logos equal chances, adding up to 1', () => {
    for (const counts of [
      [0, 0],
      [3, 3, 3],
      [2, 2, 2, 2],
      [250_000, 250_000, 250_000, 250_000],
    ]) {
      for (const chance of favouriteChances(counts)) expect(Math.abs(chance - 1 / counts.length)).toBeLessThan(1e-5);
    }
  });

  it('is the same for the same counts, every time', () => {
    expect(favouriteChances([7, 5, 3, 1])).toEqual(favouriteChances([7, 5, 3, 1]));
  });
});

describe('estimateVotesToSettle', () => {
  it('is the same for the same counts, every time, and its range holds its median', () => {
    const estimate = estimateVotesToSettle([7, 5]);
    expect(estimate).toEqual(estimateVotesToSettle([7, 5]));
    expect(estimate!.low).toBeLessThanOrEqual(estimate!.votes);
    expect(estimate!.votes).toBeLessThanOrEqual(estimate!.high);
  });

  it('asks for more votes the closer the lead', () => {
    expect(estimateVotesToSettle([11, 9])!.votes).toBeGreaterThan(estimateVotesToSettle([13, 7])!.votes);
  });

  it('settles a lead one vote short within a few votes', () => {
    // 14 to 6 is clear (96%), 13 to 6 is not.
    expect(isClearFavourite([14, 6])).toBe(true);
    expect(isClearFavourite([13, 6])).toBe(false);
    expect(estimateVotesToSettle([13, 6])!.votes).toBeLessThan(10);
  });

  it('has none when a million more votes would not settle it', () => {
    expect(estimateVotesToSettle([300_001, 300_000])).toBeNull();
  });
});

const sentence = (counts: number[], voting: 'open' | 'closed' = 'open') => verdictSentence(judgePoll(counts, voting), LABELS);

/** Every ranking-ordered count of 2 to 4 logos with at most 6 votes each. */
function* rankedCounts(): Generator<number[]> {
  for (let logos = 2; logos <= 4; logos += 1) {
    const counts = Array.from({ length: logos }, () => 0);
    for (;;) {
      if (counts.every((count, i) => i === 0 || count <= counts[i - 1]!)) yield [...counts];
      let i = 0;
      while (i < logos && counts[i] === 6) counts[i++] = 0;
      if (i === logos) break;
      counts[i]! += 1;
    }
  }
}

describe('judgePoll and its sentence', () => {
  it('says there are no votes yet, or only one logo', () => {
    expect(judgePoll([0, 0, 0])).toEqual({ voting: 'open', kind: 'no-votes' });
    expect(sentence([0, 0])).toBe('No votes yet: there is no favourite until people vote.');
    expect(judgePoll([4])).toEqual({ voting: 'open', kind: 'single' });
    expect(sentence([4])).toBe('Logo A is the only logo in this poll, so there is nothing to compare it with.');
  });

  it('calls a tie too close to call', () => {
    expect(judgePoll([1, 1]).kind).toBe('tie');
    expect(sentence([1, 1])).toBe('Logo A and Logo B are tied with 1 vote each: too close to call. More votes will tell.');
    expect(sentence([3, 3, 3, 1])).toBe('Logo A, Logo B and Logo C are tied with 3 votes each: too close to call. More votes will tell.');
  });

  it('says how many more votes would likely settle a narrow lead', () => {
    const verdict = judgePoll([7, 5]);
    expect(verdict.kind).toBe('leads');
    // Its likely value and the lower end of its range: the range, 13 to 2,300, is no guide.
    expect(sentence([7, 5])).toBe('Logo A leads; about 65 more votes would likely settle it (at least 13 more).');
  });

  it('gives the range of votes to settle a lead only where it is no wider than ×10', () => {
    const settle = { votes: 480, low: 190, high: 23_000 };
    expect(statedVotesToSettle(settle)).toEqual({ votes: 480, low: 190, high: null });
    expect(statedVotesToSettle({ votes: 60, low: 23.5, high: 140.2 })).toEqual({ votes: 60, low: 23, high: 150 });
    expect(statedVotesToSettle({ votes: 30, low: 12, high: Infinity })).toEqual({ votes: 30, low: 12, high: null });
    // Round figures, rounded outwards: 1 234 is at least 1,200.
    expect(statedVotesToSettle({ votes: 2_345, low: 1_234, high: 9_876 })).toEqual({ votes: 2_300, low: 1_200, high: 9_900 });
    expect(sentence([13, 6])).toBe('Logo A leads; about 1 more vote would likely settle it.');
    for (const counts of rankedCounts()) {
      const verdict = judgePoll(counts);
      if (verdict.kind !== 'leads' || verdict.settle === null) continue;
      const stated = statedVotesToSettle(verdict.settle);
      expect(stated.low).toBeLessThanOrEqual(stated.votes);
      const words = verdictSentence(verdict, LABELS);
      if (stated.high === null) expect(words).toContain(`(at least ${stated.low} more)`);
      else {
        expect(stated.high).toBeLessThanOrEqual(MAX_STATED_RANGE_RATIO * stated.low);
        if (stated.high > stated.low) expect(words).toContain(`(somewhere between ${stated.low} and ${stated.high})`);
      }
    }
  });

  it('says which logos are out of the race, at 20 votes', () => {
    // The bakery's poll: 82%, 16%, 1.9% and 0.2% to be the favourite.
    const verdict = judgePoll([10, 6, 3, 1]);
    expect(verdict).toMatchObject({ kind: 'leads', contenders: 2 });
    expect(
      verdictSentence(verdict, ['Logo A (Wheat ear)', 'Logo B (Simple wordmark)', 'Logo C (White croissant)', 'Logo D (Playful)']),
    ).toBe(
      'Logo A (Wheat ear) leads; about 39 more votes would likely settle it (at least 10 more). ' +
        'It is between Logo A (Wheat ear) and Logo B (Simple wordmark): Logo C (White croissant) and Logo D (Playful) are very unlikely to be the favourite.',
    );
    expect(sentence([40, 35, 2, 1])).toMatch(
      /^Logo A leads; about [\d,]+ more votes would likely settle it \(at least [\d,]+ more\)\. It is between Logo A and Logo B: Logo C and Logo D are very unlikely to be the favourite\.$/,
    );
    // One logo out of three.
    expect(sentence([9, 6, 5, 0])).toMatch(/\. It is between Logo A, Logo B and Logo C: Logo D is very unlikely to be the favourite\.$/);
    // With every logo in the race, no second sentence.
    expect(judgePoll([10, 9, 8])).toMatchObject({ kind: 'leads', contenders: 3 });
    expect(sentence([10, 9, 8])).toMatch(/^Logo A leads; about [\d,]+ more votes would likely settle it \([^)]*\)\.$/);
    // In a tie too.
    expect(sentence([6, 6, 1, 1])).toBe(
      'Logo A and Logo B are tied with 6 votes each: too close to call. More votes will tell. ' +
        'It is between Logo A and Logo B: Logo C and Logo D are very unlikely to be the favourite.',
    );
  });

  it('calls out of the race only logos below 2%, behind the runner-up', () => {
    const chances = favouriteChances([10, 6, 3, 1]);
    expect(contendersOf([10, 6, 3, 1], chances)).toBe(2);
    // The bar decides: with 1%, the 1.9% logo stays in.
    expect(contendersOf([10, 6, 3, 1], chances, 0.01)).toBe(3);
    // The runner-up never is, even at 0.1%: only 'clear favourite' says the leader is the one.
    expect(contendersOf([1000, 900, 0], favouriteChances([1000, 900, 0]))).toBe(2);
    expect(contendersOf([12, 6], favouriteChances([12, 6]))).toBe(2);
    // A logo with as many votes as the runner-up neither.
    expect(contendersOf([12, 1, 1], favouriteChances([12, 1, 1]))).toBe(3);
    for (const counts of rankedCounts()) {
      const ranked = favouriteChances(counts);
      const contenders = contendersOf(counts, ranked);
      for (let i = contenders; i < counts.length; i += 1) {
        expect(ranked[i]!).toBeLessThan(OUT_OF_RACE_CHANCE);
        // Its card never shows 2%: the words and the figure agree.
        expect(percentText(ranked[i]!)).toMatch(/^(1%|less than 1%)$/);
        expect(counts[i]!).toBeLessThan(counts[1]!);
      }
    }
  });

  it('is the same for the same counts, every time', () => {
    expect(sentence([10, 6, 3, 1])).toBe(sentence([10, 6, 3, 1]));
    expect(judgePoll([10, 6, 3, 1])).toEqual(judgePoll([10, 6, 3, 1]));
  });

  it('calls a clear lead the clear favourite, with how sure', () => {
    expect(judgePoll([14, 6]).kind).toBe('clear');
    expect(sentence([14, 6])).toBe('Logo A is the clear favourite: 96% likely to be the most preferred.');
    expect(sentence([30, 10, 5])).toBe('Logo A is the clear favourite: 99% likely to be the most preferred.');
    expect(sentence([20, 8, 6, 2])).toMatch(/^Logo A is the clear favourite: 9\d% likely to be the most preferred\.$/);
  });

  it('stays finite at 600 000 votes', () => {
    const close = judgePoll([300_500, 299_500]);
    expect(close.kind).toBe('leads');
    expect(sentence([300_500, 299_500])).toMatch(/^Logo A leads; about [\d,]+ more votes would likely settle it \(/);
    expect(sentence([400_000, 200_000])).toBe('Logo A is the clear favourite: 99% likely to be the most preferred.');
    expect(sentence([150_001, 150_000, 150_000, 149_999])).toBe(
      'Logo A leads, but it is too early to say how many more votes would settle it: share the link with more people.',
    );
    for (const chance of favouriteChances([150_001, 150_000, 150_000, 149_999])) expect(Number.isFinite(chance)).toBe(true);
  });
});

describe('a closed poll', () => {
  const NAMED = ['Logo A (Wheat ear)', 'Logo B (Simple wordmark)', 'Logo C (White croissant)', 'Logo D (Playful)'];

  it('gets a final sentence of its own, for every kind of verdict', () => {
    expect(sentence([0, 0], 'closed')).toBe('Voting closed with no votes, so there is no favourite.');
    expect(sentence([4], 'closed')).toBe('Voting closed. Logo A is the only logo in this poll, so there is nothing to compare it with.');
    expect(sentence([3, 3], 'closed')).toBe('Voting closed on a tie: Logo A and Logo B have 3 votes each, so there is no clear favourite.');
    expect(sentence([14, 6], 'closed')).toBe('Voting closed: Logo A is the clear favourite, 96% likely to be the most preferred.');
    expect(verdictSentence(judgePoll([10, 6, 3, 1], 'closed'), NAMED)).toBe(
      'Voting closed with no clear favourite: Logo A (Wheat ear) led with an 81% chance to be the most preferred. ' +
        'It was between Logo A (Wheat ear) and Logo B (Simple wordmark): Logo C (White croissant) and Logo D (Playful) are very unlikely to be the favourite.',
    );
    expect(sentence([7, 5], 'closed')).toBe(
      'Voting closed with no clear favourite: Logo A led with a 70% chance to be the most preferred.',
    );
  });

  it('never asks for more votes, and needs no estimate of them', () => {
    for (const counts of rankedCounts()) {
      const verdict = judgePoll(counts, 'closed');
      expect(verdictSentence(verdict, LABELS)).toMatch(/^Voting closed/);
      expect(verdictSentence(verdict, LABELS)).not.toMatch(/more votes?|more people|share the link/i);
      if (verdict.kind === 'leads') expect(verdict.settle).toBeNull();
      // The same judgement as while open, in final words.
      const open = judgePoll(counts, 'open');
      expect({ ...verdict, voting: 'open' }).toEqual(open.kind === 'leads' ? { ...open, settle: null } : open);
    }
    expect(sentence([300_500, 299_500], 'closed')).toBe(
      'Voting closed with no clear favourite: Logo A led with a 90% chance to be the most preferred.',
    );
  });

  it("says 'no clear favourite' beside the 'Winner' badge unless it is clear", () => {
    expect(winnerQualifier(judgePoll([14, 6], 'closed'))).toBe('clear lead');
    expect(winnerQualifier(judgePoll([7, 5], 'closed'))).toBe('no clear favourite');
    expect(winnerQualifier(judgePoll([1, 1], 'closed'))).toBe('no clear favourite');
    expect(winnerQualifier(judgePoll([0, 0], 'closed'))).toBeNull();
  });
});

describe("the 'Winner' badge's qualifier", () => {
  it('never says something the sentence does not', () => {
    for (const counts of rankedCounts()) {
      for (const voting of ['open', 'closed'] as const) {
        const verdict: Verdict = judgePoll(counts, voting);
        const qualifier = winnerQualifier(verdict);
        const words = verdictSentence(verdict, LABELS);
        if (counts[0] === 0) expect(qualifier).toBeNull();
        else if (words.includes('no clear favourite')) expect(qualifier).toBe('no clear favourite');
        else if (words.includes('clear favourite')) expect(qualifier).toBe('clear lead');
        else expect(qualifier).toBe(voting === 'open' ? 'too close to call' : null);
        expect(verdict.kind === 'clear').toBe(isClearFavourite(counts));
      }
    }
  });

  it('is too close to call for a 1-1 tie', () => {
    expect(winnerQualifier(judgePoll([1, 1]))).toBe('too close to call');
  });
});

describe('chances in words', () => {
  it('never rounds up to the threshold or to a certainty', () => {
    expect(percentText(CLEAR_FAVOURITE_CHANCE - 1e-3)).toBe('94%');
    expect(percentText(0.5 - 1e-7)).toBe('50%');
    expect(percentText(CLEAR_FAVOURITE_CHANCE)).toBe('95%');
    expect(percentText(0.99999)).toBe('99%');
    expect(percentText(1)).toBe('99%');
    expect(percentText(0.004)).toBe('less than 1%');
    expect(chanceSentence(0.62)).toBe('62% chance to be the favourite');
    expect(chanceSentence(0)).toBe('Less than 1% chance to be the favourite');
  });
});
