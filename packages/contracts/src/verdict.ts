// An ambient module declaration reaches every consumer (services, remotes, tests) only through a reference.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./seedrandom-alea.d.ts" />
import alea from 'seedrandom/lib/alea';

/*
 * Which logo voters prefer, how sure that is, and how many more votes would settle it (docs/confidence.md).
 * Free of zod and of the other contracts, so the results page imports it on its own
 * ('@logovote/contracts/verdict').
 *
 * The voters' shares of the logos are unknown; given the votes, they follow the Dirichlet distribution with
 * parameters PRIOR_VOTES + each logo's count. A logo's chance to be the favourite is the probability, under that
 * distribution, that its share is the largest: an integral, computed the same way on every device.
 *
 * Written here rather than taken from a library: the gamma distribution function and a quadrature rule are the
 * only numerics needed, a few lines; the statistics libraries that have them (@stdlib, jStat) weigh many times
 * this module on the results page's first load.
 */

// Module constants: in a Node vm context (Jest) every lookup of the global `Math` is ten times slower, and the
// calibration simulation makes millions.
const { abs, cbrt, ceil, cos, exp, floor, log, log10, max, min, round, sin, sqrt, PI, SQRT2 } = Math;

/**
 * The uniform prior, Dirichlet(1, …, 1): before any vote every split of the voters is equally likely. It weighs
 * as one imaginary vote per logo, so that 2 votes to 0 does not read as certainty.
 */
export const PRIOR_VOTES = 1;

/** The leader is the clear favourite from this chance to be the most preferred (calibrated in docs/confidence.md). */
export const CLEAR_FAVOURITE_CHANCE = 0.95;

/** The chances are computed to about 10⁻⁵ (the unit tests): one this close below a whole percent counts as it, so a tie shows 50%. */
const CHANCE_TOLERANCE = 1e-5;

/** Whether a chance reaches a bar, allowing for the computation's error. */
const isAtLeast = (chance: number, bar: number) => chance + CHANCE_TOLERANCE >= bar;

/** Whether a leader with this chance is the clear favourite. */
const isClearChance = (chance: number) => isAtLeast(chance, CLEAR_FAVOURITE_CHANCE);

/**
 * A logo with fewer votes than the runner-up is out of the race (very unlikely to be the favourite) below this
 * chance, so its card shows at most '1%'. The largest bar at which, in the simulation, no scenario at any number of
 * voters from 10 to 100 has more than 5% of such calls wrong (docs/confidence.md).
 */
export const OUT_OF_RACE_CHANCE = 0.02;

/** Standard normal distribution function, from erfc (Numerical Recipes' erfcc: relative error below 1.2e-7). */
function normalCdf(z: number): number {
  const x = abs(z) / SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const polynomial =
    -1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const erfc = t * exp(-x * x + polynomial);
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** Up to this shape the gamma distribution function is summed exactly; above it, Wilson and Hilferty's approximation. */
const EXACT_SHAPE = 40;

/** P(G ≤ x) for G ~ Gamma(shape, 1), shape a whole number ≥ 1. */
function gammaCdf(shape: number, x: number): number {
  if (x <= 0) return 0;
  if (shape <= EXACT_SHAPE) {
    // P(G > x) = e^(−x) Σ_{k < shape} x^k / k!, the Poisson tail.
    let term = 1;
    let sum = 1;
    for (let k = 1; k < shape; k += 1) {
      term *= x / k;
      sum += term;
    }
    return 1 - exp(-x) * sum;
  }
  // From 40 on its error is a few 10⁻⁵ and shrinks as 1/shape: far below the whole percents shown.
  const ninth = 1 / (9 * shape);
  return normalCdf((cbrt(x / shape) - 1 + ninth) / sqrt(ninth));
}

/** ln Γ(shape) for a whole number shape ≥ 1: ln((shape − 1)!), summed below 30, Stirling's series above. */
function logGamma(shape: number): number {
  if (shape < 30) {
    let sum = 0;
    for (let k = 2; k < shape; k += 1) sum += log(k);
    return sum;
  }
  const inverse = 1 / shape;
  const inverseSquared = inverse * inverse;
  return (shape - 0.5) * log(shape) - shape + 0.5 * log(2 * PI) + inverse * (1 / 12 - inverseSquared * (1 / 360 - inverseSquared / 1260));
}

/**
 * G^(1/3), G ~ Gamma(shape, 1), is close to normal at every shape (Wilson and Hilferty): the range, 8 standard
 * deviations either side of its mean, outside which its density is negligible.
 */
function cubeRootRange(shape: number): [low: number, high: number] {
  const ninth = 1 / (9 * shape);
  const mean = cbrt(shape) * (1 - ninth);
  const deviation = cbrt(shape) * sqrt(ninth);
  return [max(0, mean - 8 * deviation), mean + 8 * deviation];
}

/** Gauss–Legendre quadrature on [−1, 1]: nodes and weights, by Newton's method on the Legendre polynomial. */
function gaussLegendre(order: number): { nodes: number[]; weights: number[] } {
  const nodes: number[] = [];
  const weights: number[] = [];
  for (let i = 1; i <= order; i += 1) {
    let x = cos((PI * (i - 0.25)) / (order + 0.5));
    let derivative = 1;
    for (let iteration = 0; iteration < 100; iteration += 1) {
      let current = 1;
      let previous = 0;
      for (let n = 1; n <= order; n += 1) [previous, current] = [current, ((2 * n - 1) * x * current - (n - 1) * previous) / n];
      derivative = (order * (x * current - previous)) / (x * x - 1);
      const step = current / derivative;
      x -= step;
      if (abs(step) < 1e-15) break;
    }
    nodes.push(x);
    weights.push(2 / ((1 - x * x) * derivative * derivative));
  }
  return { nodes, weights };
}

/** 32 nodes: with the distribution function above, within 10⁻⁴ of the exact chances from no votes to a million (the unit tests). */
const QUADRATURE = gaussLegendre(32);

/**
 * P(G_i > G_j for every j ≠ i) for independent G_j ~ Gamma(shapes[j], 1), shapes whole numbers: the chance that
 * logo i's share G_i / Σ G is the largest under Dirichlet(shapes). Integrated over t = G_i^(1/3), whose density
 * is smooth and nearly normal at every shape: ∫ 3t² f_i(t³) Π_{j≠i} P(G_j ≤ t³) dt.
 */
function chanceLargest(shapes: readonly number[], i: number): number {
  const shape = shapes[i]!;
  const high = cubeRootRange(shape)[1];
  // Below any logo's range, that logo's share almost surely wins.
  const low = max(...shapes.map((other) => cubeRootRange(other)[0]));
  if (low >= high) return 0;
  const half = (high - low) / 2;
  const middle = (high + low) / 2;
  const logScale = log(3) - logGamma(shape);
  let sum = 0;
  for (let node = 0; node < QUADRATURE.nodes.length; node += 1) {
    const t = middle + half * QUADRATURE.nodes[node]!;
    const x = t * t * t;
    let value = exp((3 * shape - 1) * log(t) - x + logScale);
    for (let j = 0; j < shapes.length && value > 0; j += 1) if (j !== i) value *= gammaCdf(shapes[j]!, x);
    sum += QUADRATURE.weights[node]! * value;
  }
  return min(1, sum * half);
}

/** Each logo's chance to be the most preferred, in the order of `counts` (whole numbers of votes). */
export function favouriteChances(counts: readonly number[]): number[] {
  if (counts.length < 2) return counts.map(() => 1);
  const shapes = counts.map((count) => count + PRIOR_VOTES);
  return shapes.map((_, i) => chanceLargest(shapes, i));
}

/** Whether these counts (any order) have a single leader that is the clear favourite. */
export function isClearFavourite(counts: readonly number[]): boolean {
  let leader = 0;
  for (let i = 1; i < counts.length; i += 1) if (counts[i]! > counts[leader]!) leader = i;
  if (counts.length < 2 || counts.some((count, i) => i !== leader && count === counts[leader])) return false;
  return isClearChance(
    chanceLargest(
      counts.map((count) => count + PRIOR_VOTES),
      leader,
    ),
  );
}

/** Further votes are counted up to this; a poll that even this many would not settle has no estimate. */
export const MAX_VOTES_TO_SETTLE = 1_000_000;

/**
 * The fewest further votes m ≥ 1 after which `settled(m)` holds, taking it to hold from some m on: the bracket
 * grows or shrinks from `guess` by doubling or halving, then is halved until its ends are within 5% (the
 * estimate is said in round figures); Infinity when not even MAX_VOTES_TO_SETTLE settle it.
 */
export function fewestVotesToSettle(settled: (votes: number) => boolean, guess: number): number {
  let low = 0;
  let high = min(max(1, round(guess)), MAX_VOTES_TO_SETTLE);
  if (settled(high)) {
    while (high > 1 && low === 0) {
      const half = floor(high / 2);
      if (settled(half)) high = half;
      else low = half;
    }
  } else {
    do {
      if (high >= MAX_VOTES_TO_SETTLE) return Infinity;
      low = high;
      high = min(2 * high, MAX_VOTES_TO_SETTLE);
    } while (!settled(high));
  }
  while (high - low > 1 && high > 1.05 * low) {
    const middle = floor((low + high) / 2);
    if (settled(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/** Standard normal variates from a uniform generator, in pairs (Box and Muller). */
export function normalVariates(random: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    const radius = sqrt(-2 * log(1 - random()));
    const angle = 2 * PI * random();
    spare = radius * sin(angle);
    return radius * cos(angle);
  };
}

/** A Gamma(shape, 1) variate for shape ≥ 1 (Marsaglia and Tsang's method). */
function gammaVariate(shape: number, random: () => number, normal: () => number): number {
  const d = shape - 1 / 3;
  const c = 1 / sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    if (log(random()) < 0.5 * x * x + d - d * v + d * log(v)) return d * v;
  }
}

/** Draws of the voters' shares per estimate. */
const SHARE_DRAWS = 64;

export type VotesToSettle = {
  /** The median, over the voters' likely shares, of the further votes after which the poll would likely be settled. */
  votes: number;
  /** The 10th and 90th percentiles of the same. */
  low: number;
  high: number;
};

/**
 * How many more votes would likely settle the poll. For each of SHARE_DRAWS draws of the voters' shares from the
 * posterior (a generator seeded by the counts: the same counts give the same figures on every device), the fewest
 * further votes after which the counts, grown in those shares, make a clear favourite; their median and 10%–90%
 * range. Null when the median is beyond MAX_VOTES_TO_SETTLE.
 */
export function estimateVotesToSettle(counts: readonly number[]): VotesToSettle | null {
  const random = alea(`settle:${counts.join(',')}`);
  const normal = normalVariates(random);
  const needed: number[] = [];
  let guess = max(
    1,
    counts.reduce((sum, count) => sum + count, 0),
  );
  for (let draw = 0; draw < SHARE_DRAWS; draw += 1) {
    const gammas = counts.map((count) => gammaVariate(count + PRIOR_VOTES, random, normal));
    const total = gammas.reduce((sum, value) => sum + value, 0);
    const votes = fewestVotesToSettle(
      (more) => isClearFavourite(counts.map((count, i) => count + round((more * gammas[i]!) / total))),
      guess,
    );
    needed.push(votes);
    if (Number.isFinite(votes)) guess = votes;
  }
  needed.sort((a, b) => a - b);
  const percentile = (p: number) => needed[floor((p / 100) * SHARE_DRAWS)]!;
  const votes = percentile(50);
  return Number.isFinite(votes) ? { votes, low: percentile(10), high: percentile(90) } : null;
}

/** Whether the poll still takes votes: the words for a closed poll are final and ask for no more votes. */
export type VotingState = 'open' | 'closed';

/**
 * How many logos, in ranking order, are still in the race; the rest are out of it. The first two always are
 * (so the sentence names at least two contenders, and never says more than 'clear favourite' does), and so is
 * any logo with as many votes as the runner-up; the others are out when their chance is below
 * `outBelow` (OUT_OF_RACE_CHANCE; the calibration tries others). Chances fall with the votes, so the logos out of
 * the race are the last ones.
 */
export function contendersOf(counts: readonly number[], chances: readonly number[], outBelow = OUT_OF_RACE_CHANCE): number {
  let contenders = min(2, counts.length);
  while (contenders < counts.length && (counts[contenders] === counts[1] || isAtLeast(chances[contenders]!, outBelow))) contenders += 1;
  return contenders;
}

export type Verdict = { voting: VotingState } & (
  | { kind: 'no-votes' }
  /** A poll of one logo: nothing to compare. */
  | { kind: 'single' }
  /** The first `tied` logos (2 or more) share the most votes; the first `contenders` are in the race. */
  | { kind: 'tie'; tied: number; votes: number; chances: number[]; contenders: number }
  | { kind: 'clear'; chances: number[] }
  /**
   * The leader is ahead but not yet the clear favourite; the first `contenders` logos are in the race (contendersOf).
   * `settle` is null when it is too early to say, and on a closed poll (no more votes come).
   */
  | { kind: 'leads'; chances: number[]; contenders: number; settle: VotesToSettle | null }
);

/** The verdict on a poll from its logos' vote counts, in ranking order (most votes first). */
export function judgePoll(counts: readonly number[], voting: VotingState = 'open'): Verdict {
  const [leader = 0, runnerUp] = counts;
  if (leader === 0) return { voting, kind: 'no-votes' };
  if (runnerUp === undefined) return { voting, kind: 'single' };
  const chances = favouriteChances(counts);
  const contenders = contendersOf(counts, chances);
  if (runnerUp === leader)
    return { voting, kind: 'tie', tied: counts.filter((count) => count === leader).length, votes: leader, chances, contenders };
  if (isClearChance(chances[0]!)) return { voting, kind: 'clear', chances };
  return { voting, kind: 'leads', chances, contenders, settle: voting === 'open' ? estimateVotesToSettle(counts) : null };
}

/** The qualifier beside the spec's 'Winner' badge, consistent with the sentence; null where there is no comparison. */
export function winnerQualifier(verdict: Verdict): 'clear lead' | 'too close to call' | 'no clear favourite' | null {
  if (verdict.kind === 'clear') return 'clear lead';
  if (verdict.kind !== 'tie' && verdict.kind !== 'leads') return null;
  return verdict.voting === 'closed' ? 'no clear favourite' : 'too close to call';
}

/** A chance as a whole percent, never rounded up to a certainty or down to nothing: '96%', 'less than 1%'. */
export function percentText(chance: number): string {
  if (chance < 0.01) return 'less than 1%';
  return `${min(99, floor((chance + CHANCE_TOLERANCE) * 100))}%`;
}

/** A number of votes in round figures: two significant digits, rounded `up` or down or to the nearest. */
function roundVotes(votes: number, direction: 'nearest' | 'up' | 'down' = 'nearest'): number {
  const unit = votes < 100 ? 1 : 10 ** (floor(log10(votes)) - 1);
  const toWhole = direction === 'up' ? ceil : direction === 'down' ? floor : round;
  return max(1, toWhole(votes / unit) * unit);
}

/** The page gives the range of votes to settle a lead only up to this ratio of its ends; past it, only the lower end. */
export const MAX_STATED_RANGE_RATIO = 10;

/**
 * The votes to settle a lead as the sentence states them, in round figures: about `votes`, at least `low`, and
 * at most `high` when the 10%–90% range is no wider than MAX_STATED_RANGE_RATIO (else null: a range of ×200 is
 * no guide, its lower end is).
 */
export function statedVotesToSettle(settle: VotesToSettle): { votes: number; low: number; high: number | null } {
  const low = roundVotes(settle.low, 'down');
  const high = Number.isFinite(settle.high) ? roundVotes(settle.high, 'up') : Infinity;
  return { votes: roundVotes(settle.votes), low, high: high <= MAX_STATED_RANGE_RATIO * low ? high : null };
}

const votesText = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'vote' : 'votes'}`;
const moreVotesText = (count: number) => `${count.toLocaleString('en-US')} more ${count === 1 ? 'vote' : 'votes'}`;

/** 'Logo A', 'Logo A and Logo B', 'Logo A, Logo B and Logo C'. */
const listed = (labels: readonly string[]) =>
  labels.length < 2 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]!}`;

/** 'an 81% chance', 'a 62% chance'. */
const aChance = (chance: number) => {
  const text = percentText(chance);
  return `${/^(8|11%|18%)/.test(text) ? 'an' : 'a'} ${text} chance`;
};

/** ' It is between Logo A and Logo B: Logo C is very unlikely to be the favourite.', or nothing when every logo is in the race. */
function raceSentence(labels: readonly string[], verdict: { chances: number[]; contenders: number; voting: VotingState }): string {
  const { chances, contenders, voting } = verdict;
  const out = labels.slice(contenders, chances.length);
  if (out.length === 0) return '';
  return ` It ${voting === 'closed' ? 'was' : 'is'} between ${listed(labels.slice(0, contenders))}: ${listed(out)} ${out.length === 1 ? 'is' : 'are'} very unlikely to be the favourite.`;
}

/** How many more votes would likely settle a lead: 'about 40 more votes would likely settle it (at least 15 more)'. */
function settleWords(settle: VotesToSettle): string {
  const { votes, low, high } = statedVotesToSettle(settle);
  const text = (count: number) => count.toLocaleString('en-US');
  const bound = high === null ? ` (at least ${text(low)} more)` : high > low ? ` (somewhere between ${text(low)} and ${text(high)})` : '';
  return `about ${moreVotesText(votes)} would likely settle it${bound}`;
}

/** The verdict in one sentence (two where it also says which logos are out of the race); `labels` are the logos' labels in ranking order. */
export function verdictSentence(verdict: Verdict, labels: readonly string[]): string {
  const [first = 'Logo A'] = labels;
  const closed = verdict.voting === 'closed';
  switch (verdict.kind) {
    case 'no-votes':
      return closed ? 'Voting closed with no votes, so there is no favourite.' : 'No votes yet: there is no favourite until people vote.';
    case 'single':
      return `${closed ? 'Voting closed. ' : ''}${first} is the only logo in this poll, so there is nothing to compare it with.`;
    case 'tie': {
      const tied = listed(labels.slice(0, verdict.tied));
      const race = raceSentence(labels, verdict);
      return closed
        ? `Voting closed on a tie: ${tied} have ${votesText(verdict.votes)} each, so there is no clear favourite.${race}`
        : `${tied} are tied with ${votesText(verdict.votes)} each: too close to call. More votes will tell.${race}`;
    }
    case 'clear':
      return closed
        ? `Voting closed: ${first} is the clear favourite, ${percentText(verdict.chances[0]!)} likely to be the most preferred.`
        : `${first} is the clear favourite: ${percentText(verdict.chances[0]!)} likely to be the most preferred.`;
    case 'leads': {
      const race = raceSentence(labels, verdict);
      if (closed)
        return `Voting closed with no clear favourite: ${first} led with ${aChance(verdict.chances[0]!)} to be the most preferred.${race}`;
      if (verdict.settle === null)
        return `${first} leads, but it is too early to say how many more votes would settle it: share the link with more people.${race}`;
      return `${first} leads; ${settleWords(verdict.settle)}.${race}`;
    }
  }
}
/** A logo's chance in words, for its result card: '62% chance to be the favourite'. */
export function chanceSentence(chance: number): string {
  const text = percentText(chance);
  return `${text.charAt(0).toUpperCase()}${text.slice(1)} chance to be the favourite`;
}
