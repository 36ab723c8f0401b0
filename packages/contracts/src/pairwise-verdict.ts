// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./seedrandom-alea.d.ts" />
import alea from 'seedrandom/lib/alea';

import { MAX_LOGOS_PER_POLL } from './limits';
import { CLEAR_FAVOURITE_CHANCE, normalVariates } from './verdict';

/*
 * Head-to-head polls (docs/confidence.md, "Head-to-head"): each voter picks one logo of each pair shown, and this module says
 * which logo voters prefer and how sure that is, in the plain verdict's words and at its bar. Free of zod, so the
 * results page imports it on its own ('@logovote/contracts/pairwise-verdict').
 *
 * The logos get Bradley–Terry strengths (logo i beats logo j with chance e^θi / (e^θi + e^θj)), fitted to every
 * choice by maximum likelihood with half a choice each way per pair as a prior, so that 3 choices to 0 do not
 * read as certainty. A voter's choices hang together (one who likes A picks it in every pair), so the
 * uncertainty is taken over voters, not choices: the fit's sandwich covariance, its middle summed per voter
 * (each voter's choices are one pattern, and voters with the same pattern weigh as one term). A logo's chance to
 * be the most preferred is the share of a fixed set of draws from that normal approximation in which its
 * strength is the largest: the same draws on every device, so every device shows the same chances.
 */

const { abs, exp, max, sqrt } = Math;

/** Half a choice each way per pair: the fitted strengths stay finite when a pair went one way only. */
export const PRIOR_CHOICES = 0.5;

/** The pairs of `logos` logos in the poll's order: [0,1], [0,2], …, [1,2], …; a pattern has one mark per pair in this order. */
export function pairsOf(logos: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let first = 0; first < logos; first += 1) for (let second = first + 1; second < logos; second += 1) pairs.push([first, second]);
  return pairs;
}

/**
 * One voter's choices as a string, a mark per pair (pairsOf's order): '1' the pair's first logo picked, '2' its
 * second, '-' not chosen. How the results carry the choices: counted per pattern, so the uncertainty can be
 * taken over voters without a row per voter.
 */
export type ChoicePattern = { pattern: string; voters: number };

export const NOT_CHOSEN = '-';
export const FIRST_PICKED = '1';
export const SECOND_PICKED = '2';

/** wins[i][j]: the choices in which logo i was picked over logo j. */
export function pairWins(logos: number, patterns: readonly ChoicePattern[]): number[][] {
  const wins = Array.from({ length: logos }, () => new Array<number>(logos).fill(0));
  const pairs = pairsOf(logos);
  for (const { pattern, voters } of patterns)
    pairs.forEach(([first, second], pair) => {
      const mark = pattern[pair];
      if (mark === FIRST_PICKED) wins[first]![second]! += voters;
      else if (mark === SECOND_PICKED) wins[second]![first]! += voters;
    });
  return wins;
}

/** Each logo's share of the choices it was in that picked it; null for a logo in none yet. */
export function winRates(wins: readonly (readonly number[])[]): (number | null)[] {
  return wins.map((row, i) => {
    const won = row.reduce((sum, count) => sum + count, 0);
    const lost = wins.reduce((sum, other) => sum + other[i]!, 0);
    return won + lost === 0 ? null : won / (won + lost);
  });
}

/** Solves a x = b for a small symmetric positive definite a (Gaussian elimination; a and b are not changed). */
function solve(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col += 1) {
    for (let row = col + 1; row < n; row += 1) {
      const factor = m[row]![col]! / m[col]![col]!;
      for (let k = col; k <= n; k += 1) m[row]![k]! -= factor * m[col]![k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let row = n - 1; row >= 0; row -= 1) {
    let sum = m[row]![n]!;
    for (let k = row + 1; k < n; k += 1) sum -= m[row]![k]! * x[k]!;
    x[row] = sum / m[row]![row]!;
  }
  return x;
}

/** The chance that strength a beats strength b. */
const beats = (a: number, b: number) => 1 / (1 + exp(b - a));

/**
 * The Bradley–Terry strengths (logo 0's fixed at 0) that make `wins` most likely with the prior, by Newton's
 * method, and the likelihood's Hessian (negated) at them, over the free strengths 1…n−1.
 */
export function fitStrengths(wins: readonly (readonly number[])[]): { strengths: number[]; information: number[][] } {
  const n = wins.length;
  const strengths = new Array<number>(n).fill(0);
  const pairs = pairsOf(n);
  let information: number[][] = [];
  for (let iteration = 0; iteration < 50; iteration += 1) {
    const gradient = new Array<number>(n).fill(0);
    const hessian = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    for (const [i, j] of pairs) {
      const won = wins[i]![j]! + PRIOR_CHOICES;
      const lost = wins[j]![i]! + PRIOR_CHOICES;
      const p = beats(strengths[i]!, strengths[j]!);
      const total = won + lost;
      gradient[i]! += won - total * p;
      gradient[j]! -= won - total * p;
      const weight = total * p * (1 - p);
      hessian[i]![i]! += weight;
      hessian[j]![j]! += weight;
      hessian[i]![j]! -= weight;
      hessian[j]![i]! -= weight;
    }
    information = hessian.slice(1).map((row) => row.slice(1));
    const step = solve(information, gradient.slice(1));
    for (let k = 1; k < n; k += 1) strengths[k]! += step[k - 1]!;
    if (max(...step.map(abs)) < 1e-10) break;
  }
  return { strengths, information };
}

/** The voter's part of the likelihood's gradient at `strengths`, over the free strengths: one voter with `pattern`. */
function voterScore(pattern: string, strengths: readonly number[]): number[] {
  const score = new Array<number>(strengths.length).fill(0);
  pairsOf(strengths.length).forEach(([i, j], pair) => {
    const mark = pattern[pair];
    if (mark !== FIRST_PICKED && mark !== SECOND_PICKED) return;
    const residual = (mark === FIRST_PICKED ? 1 : 0) - beats(strengths[i]!, strengths[j]!);
    score[i]! += residual;
    score[j]! -= residual;
  });
  return score.slice(1);
}

/** The strengths' covariance over voters: H⁻¹ (Σ per voter s sᵀ) H⁻¹, with a small-sample factor v / (v − 1). */
function voterCovariance(patterns: readonly ChoicePattern[], strengths: readonly number[], information: number[][]): number[][] {
  const free = strengths.length - 1;
  const middle = Array.from({ length: free }, () => new Array<number>(free).fill(0));
  let voters = 0;
  for (const { pattern, voters: count } of patterns) {
    if (count <= 0) continue;
    voters += count;
    const score = voterScore(pattern, strengths);
    for (let a = 0; a < free; a += 1) for (let b = 0; b < free; b += 1) middle[a]![b]! += count * score[a]! * score[b]!;
  }
  const correction = voters > 1 ? voters / (voters - 1) : 1;
  // H⁻¹ M H⁻¹, column by column; the prior's information keeps H invertible.
  const inverseColumns = Array.from({ length: free }, (_, col) =>
    solve(
      information,
      middle.map((row) => row[col]!),
    ),
  );
  const left = Array.from({ length: free }, (_, row) => inverseColumns.map((column) => column[row]!));
  return left.map((row) => solve(information, row).map((value) => value * correction));
}

/** The lower Cholesky factor of a small positive semi-definite matrix (zero where it is singular). */
function cholesky(a: readonly (readonly number[])[]): number[][] {
  const n = a.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i += 1)
    for (let j = 0; j <= i; j += 1) {
      let sum = a[i]![j]!;
      for (let k = 0; k < j; k += 1) sum -= l[i]![k]! * l[j]![k]!;
      if (i === j) l[i]![i] = sum > 0 ? sqrt(sum) : 0;
      else l[i]![j] = l[j]![j]! > 0 ? sum / l[j]![j]! : 0;
    }
  return l;
}

/** Draws per chance: their share is within about 0.3 percentage points of the exact chance near 95%. */
const DRAWS = 4000;

/** The fixed standard normal draws, one per free strength of the largest poll in each row, made once. */
let draws: number[][] | undefined;
function fixedDraws(): number[][] {
  if (!draws) {
    const normal = normalVariates(alea('pairwise-verdict'));
    draws = Array.from({ length: DRAWS }, () => Array.from({ length: MAX_LOGOS_PER_POLL - 1 }, normal));
  }
  return draws;
}

/**
 * Each logo's chance to be the most preferred, in the poll's order, from every voter's pattern of choices (2 to
 * MAX_LOGOS_PER_POLL logos; head-to-head polls have 3 or 4).
 */
function pairwiseChances(logos: number, patterns: readonly ChoicePattern[]): number[] {
  const { strengths, information } = fitStrengths(pairWins(logos, patterns));
  const factor = cholesky(voterCovariance(patterns, strengths, information));
  const best = new Array<number>(logos).fill(0);
  for (const z of fixedDraws()) {
    let leader = 0;
    let top = 0;
    for (let k = 1; k < logos; k += 1) {
      let value = strengths[k]!;
      for (let c = 0; c < k; c += 1) value += factor[k - 1]![c]! * z[c]!;
      if (value > top) [leader, top] = [k, value];
    }
    best[leader]! += 1;
  }
  return best.map((count) => count / DRAWS);
}

/**
 * Whether the choices' majorities go round in a circle at the top: no logo beats every other head-to-head, and
 * some logos beat each other in turn (A over B, B over C, C over A), so no logo is the single favourite. A pair
 * split evenly has no majority; with such a split and no circle, the fit's chances speak.
 */
export function majoritiesCircle(wins: readonly (readonly number[])[]): boolean {
  const n = wins.length;
  const over = (i: number, j: number) => wins[i]![j]! > wins[j]![i]!;
  const condorcet = wins.some((_, i) => wins.every((__, j) => j === i || over(i, j)));
  if (condorcet) return false;
  // A directed cycle in the majority graph: a logo that reaches itself again.
  const reaches = (from: number, to: number, seen: Set<number>): boolean => {
    for (let next = 0; next < n; next += 1) {
      if (next === from || !over(from, next)) continue;
      if (next === to) return true;
      if (!seen.has(next)) {
        seen.add(next);
        if (reaches(next, to, seen)) return true;
      }
    }
    return false;
  };
  return wins.some((_, i) => reaches(i, i, new Set()));
}

export type PairwiseVerdict =
  | { kind: 'no-choices' }
  /** The majorities go round in a circle: no single favourite (majoritiesCircle). */
  | { kind: 'circle'; chances: number[] }
  /** The first two logos in the ranking have the same strength. */
  | { kind: 'tie'; chances: number[] }
  /** The leader is at least CLEAR_FAVOURITE_CHANCE likely the most preferred, and beats every other logo head-to-head. */
  | { kind: 'clear'; chances: number[] }
  | { kind: 'leads'; chances: number[] };

/**
 * The logos in ranking order (strongest first, the poll's order among equals) and the verdict on them, from
 * every voter's pattern of choices; `chances` follow the ranking.
 */
export function judgePairs(logos: number, patterns: readonly ChoicePattern[]): { order: number[]; verdict: PairwiseVerdict } {
  const wins = pairWins(logos, patterns);
  const choices = wins.flat().reduce((sum, count) => sum + count, 0);
  const { strengths } = fitStrengths(wins);
  const order = strengths.map((_, logo) => logo).sort((a, b) => strengths[b]! - strengths[a]! || a - b);
  if (choices === 0) return { order, verdict: { kind: 'no-choices' } };
  const byLogo = pairwiseChances(logos, patterns);
  const chances = order.map((logo) => byLogo[logo]!);
  const [leader, runnerUp] = order as [number, number];
  if (majoritiesCircle(wins)) return { order, verdict: { kind: 'circle', chances } };
  if (abs(strengths[leader]! - strengths[runnerUp]!) < 1e-9) return { order, verdict: { kind: 'tie', chances } };
  const beatsEveryOther = order.every((logo) => logo === leader || wins[leader]![logo]! > wins[logo]![leader]!);
  if (beatsEveryOther && chances[0]! + 1e-9 >= CLEAR_FAVOURITE_CHANCE) return { order, verdict: { kind: 'clear', chances } };
  return { order, verdict: { kind: 'leads', chances } };
}
