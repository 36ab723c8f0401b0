/**
 * Is the leader's lead real, or could chance alone have made it? The exact conditional binomial test of the
 * leader against the runner-up (docs/confidence.md): of the n = a + b votes the two got, a ~ Binomial(n, 1/2)
 * if both were equally liked. Two-sided, at the 5% level; no correction for 3 or 4 logos (the doc says why).
 *
 * Written here rather than taken from a library: the one kept candidate (@stdlib's binomial CDF) brings the
 * regularized incomplete beta function and its helpers into the results page's first load, many times the size
 * of these few lines, which are exact for the only case needed (p = 1/2, whole counts).
 */

/** A lead is clear when a gap at least this large, either way, comes up by chance less often than this. */
export const SIGNIFICANCE_LEVEL = 0.05;

/** ln(k!) is summed exactly below this; above it Stirling's series, whose first omitted term is below 1e-20. */
const SUMMED_LOG_FACTORIALS = 256;
const logFactorials = [0];

/** ln(k!) − (k ln k − k + ½ ln(2πk)) = 1/(12k) − 1/(360k³) + 1/(1260k⁵) − … (Stirling's series). */
function stirlingCorrection(k: number): number {
  const inverse = 1 / k;
  const inverseSquared = inverse * inverse;
  return inverse * (1 / 12 - inverseSquared * (1 / 360 - inverseSquared / 1260));
}

function logFactorial(k: number): number {
  if (k < SUMMED_LOG_FACTORIALS) {
    while (logFactorials.length <= k) logFactorials.push(logFactorials[logFactorials.length - 1]! + Math.log(logFactorials.length));
    return logFactorials[k]!;
  }
  return k * Math.log(k) - k + 0.5 * Math.log(2 * Math.PI * k) + stirlingCorrection(k);
}

/** ln(C(n, k) / 2ⁿ). */
function logHalfBinomialTerm(n: number, k: number): number {
  const m = n - k;
  if (k < SUMMED_LOG_FACTORIALS || m < SUMMED_LOG_FACTORIALS) return logFactorial(n) - logFactorial(k) - logFactorial(m) - n * Math.LN2;
  // The same, written so that nothing large cancels (terms of size n ln n do in the line above): with x = (k − m) / n,
  // ln(C(n, k) / 2ⁿ) = −k ln(1 + x) − m ln(1 − x) + ½ ln(n / (2π k m)) + Stirling's corrections of n, k and m.
  const x = (k - m) / n;
  return (
    -k * Math.log1p(x) -
    m * Math.log1p(-x) +
    0.5 * Math.log(n / (2 * Math.PI * k * m)) +
    stirlingCorrection(n) -
    stirlingCorrection(k) -
    stirlingCorrection(m)
  );
}

/**
 * P(X ≥ k) for X ~ Binomial(n, 1/2). Summed from k upwards relative to its first term, which is taken in
 * logarithms, so nothing overflows at any count; above n/2 the terms only shrink, and the sum stops once
 * they no longer change it (a few thousand terms at a million votes).
 */
export function binomialHalfUpperTail(n: number, k: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  // Below the middle, from the mirrored tail: P(X ≥ k) = 1 − P(X ≤ k − 1) = 1 − P(X ≥ n − k + 1).
  if (2 * k < n) return 1 - binomialHalfUpperTail(n, n - k + 1);
  let sum = 0;
  let term = 1;
  for (let j = k; j <= n && term > sum * Number.EPSILON * 0.125; j += 1) {
    sum += term;
    term *= (n - j) / (j + 1);
  }
  return Math.min(1, Math.exp(logHalfBinomialTerm(n, k) + Math.log(sum)));
}

/**
 * Two-sided p-value of a lead of `leader` votes over `runnerUp`: the chance that, if both were equally liked,
 * their votes would split with a gap at least this large, either way. It equals scipy.stats.binomtest(leader,
 * leader + runnerUp, 0.5).pvalue.
 */
export function leadPValue(leader: number, runnerUp: number): number {
  const high = Math.max(leader, runnerUp);
  const low = Math.min(leader, runnerUp);
  if (high === low) return 1;
  return Math.min(1, 2 * binomialHalfUpperTail(high + low, high));
}

export type LeadVerdict =
  | { kind: 'no-votes' }
  /** A poll of one logo: nothing to compare. */
  | { kind: 'single'; votes: number }
  /** `tied` logos (2 or more) share the most votes. */
  | { kind: 'tie'; tied: number; votes: number }
  | { kind: 'too-close' | 'clear'; leader: number; runnerUp: number; pValue: number };

/** The verdict on a poll's lead, from its logos' vote counts (any order). */
export function judgeLead(voteCounts: readonly number[]): LeadVerdict {
  const [leader = 0, runnerUp, ...others] = [...voteCounts].sort((a, b) => b - a);
  if (leader === 0) return { kind: 'no-votes' };
  if (runnerUp === undefined) return { kind: 'single', votes: leader };
  if (runnerUp === leader) return { kind: 'tie', tied: 2 + others.filter((count) => count === leader).length, votes: leader };
  const pValue = leadPValue(leader, runnerUp);
  return { kind: pValue < SIGNIFICANCE_LEVEL ? 'clear' : 'too-close', leader, runnerUp, pValue };
}

const votes = (count: number) => `${count} ${count === 1 ? 'vote' : 'votes'}`;

/** 'Logo A', 'Logo A and Logo B', 'Logo A, Logo B and Logo C'. */
const listed = (labels: readonly string[]) =>
  labels.length < 2 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]!}`;

/** How often chance alone makes a gap this large, in words: thresholds below 5%, whole percents above. */
function howOften(pValue: number): string {
  if (pValue < 0.001) return 'less than 0.1% of the time';
  if (pValue < 0.01) return 'less than 1% of the time';
  if (pValue < SIGNIFICANCE_LEVEL) return 'less than 5% of the time';
  if (pValue >= 1) return 'every time';
  // p is within 1e-12 (relative) of its exact value: one exactly on a half percent (62.5% for 3 votes to 1) rounds
  // up, as the exact value does.
  const percent = Math.round(pValue * 100 * (1 + 1e-9));
  return percent === 100 ? 'almost every time' : `${percent}% of the time`;
}

export type VerdictText = { headline: string; line: string };

/** The verdict in words; `labels` are the logos' labels in ranking order ('Logo A' first). */
export function describeVerdict(verdict: LeadVerdict, labels: readonly string[]): VerdictText {
  const [first = 'Logo A', second = 'Logo B'] = labels;
  switch (verdict.kind) {
    case 'no-votes':
      return { headline: 'No votes yet', line: 'There is no leader until people vote.' };
    case 'single':
      return { headline: 'Only one logo', line: `${first} is the only logo in this poll, so there is nothing to compare it with.` };
    case 'tie':
      return {
        headline: 'Too close to call',
        line: `${listed(labels.slice(0, verdict.tied))} are tied with ${votes(verdict.votes)} each.`,
      };
    case 'too-close':
    case 'clear': {
      const lead = `${first} leads ${second} by ${votes(verdict.leader - verdict.runnerUp)}`;
      const chance = `a gap this large would come up by chance ${howOften(verdict.pValue)} if both were equally liked.`;
      return verdict.kind === 'clear'
        ? { headline: 'Clear lead', line: `${lead}; ${chance}` }
        : { headline: 'Too close to call', line: `${lead}, but ${chance}` };
    }
  }
}
