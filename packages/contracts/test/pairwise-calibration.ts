/**
 * The head-to-head verdict's calibration (docs/confidence.md, "Head-to-head"): polls of simulated voters, each
 * picking in every pair (or stopping early) with known chances, each judged as the results page judges it.
 * Deterministic (every generator is seeded), so the unit test and the report (`npm run verdict:calibration`)
 * see the same polls.
 */
import alea from 'seedrandom/lib/alea';

import { FIRST_PICKED, judgePairs, NOT_CHOSEN, pairsOf, SECOND_PICKED, type ChoicePattern } from '../src/pairwise-verdict';

export type PairScenario = {
  name: string;
  /** What the scenario is, in the report's words. */
  truth: string;
  logos: number;
  /** The chance a voter picks logo i over logo j, before the voter's own taste. */
  picks: (i: number, j: number) => number;
  /** How far one voter's taste moves a logo's strength, at most, either way (0: every voter alike). */
  taste: number;
  /** The logo that is truly the most preferred, or null where none is. */
  favourite: number | null;
};

/** Bradley–Terry chances from strengths (logo i over j: e^θi / (e^θi + e^θj)). */
const strengthsPick = (strengths: readonly number[]) => (i: number, j: number) => 1 / (1 + Math.exp(strengths[j]! - strengths[i]!));
const logit = (p: number) => Math.log(p / (1 - p));

export const PAIR_SCENARIOS: readonly PairScenario[] = [
  { name: 'no preference', truth: 'every pair 50 / 50', logos: 3, picks: () => 0.5, taste: 0, favourite: null },
  { name: 'no preference', truth: 'every pair 50 / 50', logos: 4, picks: () => 0.5, taste: 0, favourite: null },
  {
    name: 'no preference, tastes differ',
    truth: 'every pair 50 / 50 overall, each voter with a taste of its own',
    logos: 4,
    picks: () => 0.5,
    taste: 2,
    favourite: null,
  },
  {
    name: 'a favourite',
    truth: 'A beats each other 65%',
    logos: 3,
    picks: strengthsPick([logit(0.65), 0, 0]),
    taste: 0,
    favourite: 0,
  },
  {
    name: 'a favourite',
    truth: 'A beats each other 62%',
    logos: 4,
    picks: strengthsPick([logit(0.62), 0, 0, 0]),
    taste: 0,
    favourite: 0,
  },
  {
    name: 'a favourite, tastes differ',
    truth: 'A beats each other 62% before tastes',
    logos: 4,
    picks: strengthsPick([logit(0.62), 0, 0, 0]),
    taste: 2,
    favourite: 0,
  },
  {
    name: 'an order',
    truth: 'strengths 1.0 / 0.5 / 0 / −0.5',
    logos: 4,
    picks: strengthsPick([1, 0.5, 0, -0.5]),
    taste: 0,
    favourite: 0,
  },
  {
    name: 'a circle',
    truth: 'A beats B, B beats C, C beats A, each 70%',
    logos: 3,
    picks: (i, j) => (j === (i + 1) % 3 ? 0.7 : 0.3),
    taste: 0,
    favourite: null,
  },
];

export const PAIR_VOTERS = [10, 20, 50, 100, 200, 500] as const;
const POLLS = 300;
/** One voter in this many stops before the last pair, after a random number of them. */
const STOPPING_EARLY = 5;

/** One simulated poll: every voter's pattern of choices, counted. */
export function simulatedPatterns(scenario: PairScenario, voters: number, seed: string): ChoicePattern[] {
  const random = alea(seed);
  const pairs = pairsOf(scenario.logos);
  const counts = new Map<string, number>();
  for (let voter = 0; voter < voters; voter += 1) {
    const taste = Array.from({ length: scenario.logos }, () => scenario.taste * (2 * random() - 1));
    const answered = random() < 1 / STOPPING_EARLY ? 1 + Math.floor(random() * (pairs.length - 1)) : pairs.length;
    const shown = pairs.map((_, pair) => pair);
    for (let last = shown.length - 1; last > 0; last -= 1) {
      const pick = Math.floor(random() * (last + 1));
      [shown[last], shown[pick]] = [shown[pick]!, shown[last]!];
    }
    const marks = pairs.map(() => NOT_CHOSEN);
    for (const pair of shown.slice(0, answered)) {
      const [i, j] = pairs[pair]!;
      const chance = 1 / (1 + Math.exp(-(logit(scenario.picks(i, j)) + taste[i]! - taste[j]!)));
      marks[pair] = random() < chance ? FIRST_PICKED : SECOND_PICKED;
    }
    const pattern = marks.join('');
    counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
  }
  return [...counts].map(([pattern, count]) => ({ pattern, voters: count }));
}

export type PairTally = { polls: number; clear: number; wrongClear: number; circle: number };

/** One scenario at one number of voters. */
export function simulatePairs(scenario: PairScenario, voters: number): PairTally {
  const tally: PairTally = { polls: 0, clear: 0, wrongClear: 0, circle: 0 };
  for (let poll = 0; poll < POLLS; poll += 1) {
    const patterns = simulatedPatterns(scenario, voters, `pairwise:${scenario.name}:${scenario.logos}:${voters}:${poll}`);
    const { order, verdict } = judgePairs(scenario.logos, patterns);
    tally.polls += 1;
    if (verdict.kind === 'clear') {
      tally.clear += 1;
      if (order[0] !== scenario.favourite) tally.wrongClear += 1;
    }
    if (verdict.kind === 'circle') tally.circle += 1;
  }
  return tally;
}

export type PairCalibration = { scenario: PairScenario; byVoters: PairTally[] }[];

export const calibratePairs = (): PairCalibration =>
  PAIR_SCENARIOS.map((scenario) => ({ scenario, byVoters: PAIR_VOTERS.map((voters) => simulatePairs(scenario, voters)) }));

const percent = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;

/** The report in docs/confidence.md: per scenario and number of voters, the share of polls called clear (wrong ones) and circles. */
export function pairCalibrationReport(calibration: PairCalibration): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    row(['scenario', 'logos', 'truth', ...PAIR_VOTERS.map((voters) => `${voters} voters`)]),
    row(Array.from({ length: 3 + PAIR_VOTERS.length }, () => '---')),
    ...calibration.map(({ scenario, byVoters }) =>
      row([
        scenario.name,
        String(scenario.logos),
        scenario.truth,
        ...byVoters.map(
          (tally) =>
            `clear ${percent(tally.clear, tally.polls)}${tally.wrongClear > 0 ? ` (${tally.wrongClear} wrong)` : ''}, circle ${percent(tally.circle, tally.polls)}`,
        ),
      ]),
    ),
  ].join('\n');
}
