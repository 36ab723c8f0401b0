/**
 * The verdict's calibration (docs/confidence.md): polls simulated from known true shares, each judged as the
 * results page judges it. Deterministic (every generator is seeded), so the unit test and the report
 * (`npm run verdict:calibration`) see the same polls.
 */
import alea from 'seedrandom/lib/alea';

import {
  contendersOf,
  favouriteChances,
  fewestVotesToSettle,
  isClearFavourite,
  judgePoll,
  normalVariates,
  OUT_OF_RACE_CHANCE,
  statedVotesToSettle,
} from '../src/verdict';

export type Scenario = { name: string; shares: readonly number[] };

/** A real but small preference, and a clear one, for 2, 3 and 4 logos (true shares in percent, best first). */
export const SCENARIOS: readonly Scenario[] = [
  { name: 'close', shares: [58, 42] },
  { name: 'close', shares: [45, 35, 20] },
  { name: 'close', shares: [35, 28, 22, 15] },
  { name: 'clear', shares: [70, 30] },
  { name: 'clear', shares: [55, 25, 20] },
  { name: 'clear', shares: [45, 20, 20, 15] },
];

/** Where a clear call cannot be right (no single favourite) or is hard: reported, not held to the 5%. */
export const HARD_SCENARIOS: readonly Scenario[] = [
  { name: 'tied', shares: [50, 50] },
  { name: 'tied', shares: [40, 40, 20] },
  { name: 'tied', shares: [30, 30, 20, 20] },
  { name: 'near tie', shares: [52, 48] },
  { name: 'near tie', shares: [30, 27, 23, 20] },
];

export const VOTERS = [10, 20, 50, 100, 200, 500, 1000, 2000] as const;

/** Polls per scenario and number of voters whose verdict is checked, and how many of them get a votes estimate checked. */
const POLLS = 400;
const ESTIMATED_POLLS = 40;

/** Simulated continuations per number of further votes tried, when finding the votes actually needed. */
const CONTINUATIONS = 64;

/** An estimate is right within this factor of the votes actually needed. */
export const ESTIMATE_FACTOR = 1.5;

/**
 * Votes for each logo from `voters` voters with the given shares (they add up to 1): one draw per voter up to
 * 100 voters, above that each logo's count given the ones before it from the normal approximation to the binomial.
 */
function castVotes(voters: number, shares: readonly number[], random: () => number, normal: () => number): number[] {
  const counts = shares.map(() => 0);
  if (voters <= 100) {
    for (let voter = 0; voter < voters; voter += 1) {
      let u = random();
      let logo = 0;
      while (logo < shares.length - 1 && u >= shares[logo]!) u -= shares[logo++]!;
      counts[logo]! += 1;
    }
    return counts;
  }
  let left = voters;
  let restShare = 1;
  for (let logo = 0; logo < shares.length - 1; logo += 1) {
    const p = Math.min(1, shares[logo]! / restShare);
    const count = Math.round(left * p + Math.sqrt(left * p * (1 - p)) * normal());
    counts[logo] = Math.max(0, Math.min(left, count));
    left -= counts[logo]!;
    restShare -= shares[logo]!;
  }
  counts[shares.length - 1] = left;
  return counts;
}

/**
 * The votes actually needed: the fewest further votes, cast by voters with the true shares after the poll's
 * counts, after which the verdict is 'clear favourite' in at least half of CONTINUATIONS simulated continuations.
 */
function votesActuallyNeeded(counts: readonly number[], shares: readonly number[], seed: string, guess: number): number {
  return fewestVotesToSettle((more) => {
    const random = alea(`${seed}:${more}`);
    const normal = normalVariates(random);
    let settled = 0;
    let unsettled = 0;
    while (settled < CONTINUATIONS / 2 && unsettled <= CONTINUATIONS / 2) {
      const further = castVotes(more, shares, random, normal);
      if (isClearFavourite(counts.map((count, i) => count + further[i]!))) settled += 1;
      else unsettled += 1;
    }
    return settled >= CONTINUATIONS / 2;
  }, guess);
}

export type Tally = {
  polls: number;
  /** Polls called 'clear favourite', and those whose favourite is not the one logo with the largest true share. */
  calls: number;
  wrongCalls: number;
  /** Polls with a lead and an estimate of the votes to settle it, among the first ESTIMATED_POLLS. */
  estimates: number;
  /** Estimates within ESTIMATE_FACTOR of the votes actually needed. */
  withinFactor: number;
  /** Estimates whose range (10th to 90th percentile) holds the votes actually needed. */
  rangeHolds: number;
  /** Estimates whose stated bound (at least the lower end, and at most the upper one where the page gives it) holds the votes actually needed. */
  statedHolds: number;
  /** Estimates for which the page gives the range, not only its lower end. */
  rangeStated: number;
  /** Polls with a lead, among the first ESTIMATED_POLLS, where it was too early to estimate. */
  tooEarly: number;
};

const emptyTally = (): Tally => ({
  polls: 0,
  calls: 0,
  wrongCalls: 0,
  estimates: 0,
  withinFactor: 0,
  rangeHolds: 0,
  statedHolds: 0,
  rangeStated: 0,
  tooEarly: 0,
});

/** Adds a tally's counts into another of the same kind. */
function add(total: Record<string, number>, part: Record<string, number>): void {
  for (const key of Object.keys(total)) total[key] = total[key]! + part[key]!;
}

/** The poll numbered `poll` of a scenario at a number of voters: the same counts for every part of the calibration. */
function simulatedCounts(scenario: Scenario, voters: number, poll: number): { seed: string; counts: number[] } {
  const seed = `calibration:${scenario.shares.join('/')}:${voters}:${poll}`;
  const random = alea(seed);
  return {
    seed,
    counts: castVotes(
      voters,
      scenario.shares.map((share) => share / 100),
      random,
      normalVariates(random),
    ),
  };
}

/** One scenario at one number of voters; estimates are checked only when `withEstimates`. */
export function simulate(scenario: Scenario, voters: number, withEstimates: boolean): Tally {
  const shares = scenario.shares.map((share) => share / 100);
  const largest = Math.max(...shares);
  const favourite = shares.filter((share) => share === largest).length === 1 ? shares.indexOf(largest) : -1;
  const tally = emptyTally();
  for (let poll = 0; poll < POLLS; poll += 1) {
    const { seed, counts } = simulatedCounts(scenario, voters, poll);
    // The logos in ranking order, as the results page passes their counts to judgePoll.
    const order = counts.map((_, logo) => logo).sort((a, b) => counts[b]! - counts[a]!);
    tally.polls += 1;
    // The same rule as judgePoll's 'clear', without its estimate of the votes to settle a lead (the slow part).
    if (isClearFavourite(counts)) {
      tally.calls += 1;
      if (order[0] !== favourite) tally.wrongCalls += 1;
    }
    if (!withEstimates || poll >= ESTIMATED_POLLS) continue;
    const verdict = judgePoll(order.map((logo) => counts[logo]!));
    if (verdict.kind !== 'leads') continue;
    if (verdict.settle === null) {
      tally.tooEarly += 1;
      continue;
    }
    const needed = votesActuallyNeeded(counts, shares, `${seed}:continuation`, verdict.settle.votes);
    tally.estimates += 1;
    if (verdict.settle.votes <= ESTIMATE_FACTOR * needed && needed <= ESTIMATE_FACTOR * verdict.settle.votes) tally.withinFactor += 1;
    if (verdict.settle.low <= needed && needed <= verdict.settle.high) tally.rangeHolds += 1;
    const stated = statedVotesToSettle(verdict.settle);
    if (stated.high !== null) tally.rangeStated += 1;
    if (stated.low <= needed && needed <= (stated.high ?? Infinity)) tally.statedHolds += 1;
  }
  return tally;
}

/** Where the page says which logos are out of the race: small polls. */
export const RACE_VOTERS = [10, 20, 50, 100] as const;

/** Bars tried for 'out of the race', beside the one chosen (OUT_OF_RACE_CHANCE). */
export const RACE_BARS = [0.01, 0.02, 0.03, 0.05, 0.1, 0.2] as const;

/** Calls that a logo is out of the race (one per logo called out), and those where that logo has the largest true share. */
export type RaceTally = { polls: number; calls: number; wrongCalls: number };

/**
 * The out-of-the-race calls in one scenario at one number of voters, for a bar: made, as on the page, in polls
 * with no clear favourite (a tie or a lead), for each logo after the contenders (contendersOf). A call is wrong
 * when the logo called out is the true favourite, or shares the largest true share.
 */
export function simulateRace(scenario: Scenario, voters: number, outBelow: number): RaceTally {
  const largest = Math.max(...scenario.shares);
  const tally: RaceTally = { polls: 0, calls: 0, wrongCalls: 0 };
  for (let poll = 0; poll < POLLS; poll += 1) {
    const { counts } = simulatedCounts(scenario, voters, poll);
    const order = counts.map((_, logo) => logo).sort((a, b) => counts[b]! - counts[a]!);
    const ranked = order.map((logo) => counts[logo]!);
    tally.polls += 1;
    if (ranked[0] === 0 || isClearFavourite(ranked)) continue;
    for (let position = contendersOf(ranked, favouriteChances(ranked), outBelow); position < ranked.length; position += 1) {
      tally.calls += 1;
      if (scenario.shares[order[position]!] === largest) tally.wrongCalls += 1;
    }
  }
  return tally;
}

export type Calibration = {
  /** Per scenario, over all numbers of voters. */
  scenarios: { scenario: Scenario; tally: Tally }[];
  /** Per number of voters, over the scenarios. */
  voters: { voters: number; tally: Tally }[];
  hard: { scenario: Scenario; tally: Tally }[];
  /** Out-of-the-race calls at the chosen bar, per scenario of 3 or 4 logos (then the hard ones), per number of voters in RACE_VOTERS. */
  race: { scenario: Scenario; hard: boolean; byVoters: RaceTally[] }[];
  /** Per bar tried: all calls in the scenarios, the worst scenario's, and all calls in the hard scenarios, at 10 to 100 voters. */
  bars: { outBelow: number; calls: RaceTally; worst: RaceTally; worstAtVoters: RaceTally; hard: RaceTally }[];
};

export function calibrate(): Calibration {
  const byVoters = VOTERS.map((voters) => ({ voters, tally: emptyTally() }));
  const scenarios = SCENARIOS.map((scenario) => {
    const tally = emptyTally();
    VOTERS.forEach((voters, i) => {
      const part = simulate(scenario, voters, true);
      add(tally, part);
      add(byVoters[i]!.tally, part);
    });
    return { scenario, tally };
  });
  const hard = HARD_SCENARIOS.map((scenario) => {
    const tally = emptyTally();
    for (const voters of VOTERS) add(tally, simulate(scenario, voters, false));
    return { scenario, tally };
  });
  const raceScenarios = [
    ...SCENARIOS.map((scenario) => ({ scenario, hard: false })),
    ...HARD_SCENARIOS.map((scenario) => ({ scenario, hard: true })),
  ].filter(({ scenario }) => scenario.shares.length > 2);
  const race = raceScenarios.map(({ scenario, hard }) => ({
    scenario,
    hard,
    byVoters: RACE_VOTERS.map((voters) => simulateRace(scenario, voters, OUT_OF_RACE_CHANCE)),
  }));
  const bars = RACE_BARS.map((outBelow) => {
    const calls = emptyRaceTally();
    const hardCalls = emptyRaceTally();
    let worst = emptyRaceTally();
    let worstAtVoters = emptyRaceTally();
    for (const { scenario, hard } of raceScenarios) {
      const total = emptyRaceTally();
      for (const voters of RACE_VOTERS) {
        const part = simulateRace(scenario, voters, outBelow);
        add(total, part);
        if (!hard && wrongShare(part) >= wrongShare(worstAtVoters)) worstAtVoters = part;
      }
      add(hard ? hardCalls : calls, total);
      if (!hard && wrongShare(total) >= wrongShare(worst)) worst = total;
    }
    return { outBelow, calls, worst, worstAtVoters, hard: hardCalls };
  });
  return { scenarios, voters: byVoters, hard, race, bars };
}

const emptyRaceTally = (): RaceTally => ({ polls: 0, calls: 0, wrongCalls: 0 });

/** The share of calls that are wrong (0 without calls). */
export const wrongShare = (tally: RaceTally) => (tally.calls === 0 ? 0 : tally.wrongCalls / tally.calls);

/** Out-of-the-race calls over RACE_VOTERS. */
export function raceTotal(byVoters: readonly RaceTally[]): RaceTally {
  const total = emptyRaceTally();
  for (const part of byVoters) add(total, part);
  return total;
}

const rate = (part: number, whole: number) => (whole === 0 ? '–' : `${part} / ${whole} (${Math.round((100 * part) / whole)}%)`);

/** The report in docs/confidence.md, as Markdown tables. */
export function calibrationReport(calibration: Calibration): string {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const tallyCells = (tally: Tally) => [
    String(tally.polls),
    rate(tally.calls, tally.polls),
    rate(tally.wrongCalls, tally.calls),
    rate(tally.withinFactor, tally.estimates),
    rate(tally.rangeHolds, tally.estimates),
    rate(tally.rangeStated, tally.estimates),
    rate(tally.statedHolds, tally.estimates),
    String(tally.tooEarly),
  ];
  const header = [
    'polls',
    "'clear favourite' calls",
    'wrong among calls',
    'estimate within ×1.5',
    'range holds the votes needed',
    'range given',
    'what the page says holds',
    'too early to say',
  ];
  const separator = (columns: number) => row(Array.from({ length: columns }, () => '---'));
  return [
    row(['scenario', 'true shares (%)', ...header]),
    separator(2 + header.length),
    ...calibration.scenarios.map(({ scenario, tally }) => row([scenario.name, scenario.shares.join(' / '), ...tallyCells(tally)])),
    '',
    row(['voters so far', ...header]),
    separator(1 + header.length),
    ...calibration.voters.map(({ voters, tally }) => row([String(voters), ...tallyCells(tally)])),
    '',
    row(['scenario', 'true shares (%)', 'polls', "'clear favourite' calls", 'wrong among calls']),
    separator(5),
    ...calibration.hard.map(({ scenario, tally }) =>
      row([
        scenario.name,
        scenario.shares.join(' / '),
        String(tally.polls),
        rate(tally.calls, tally.polls),
        rate(tally.wrongCalls, tally.calls),
      ]),
    ),
    '',
    row(['scenario', 'true shares (%)', ...RACE_VOTERS.map((voters) => `${voters} voters`), '10 to 100 voters']),
    separator(3 + RACE_VOTERS.length),
    ...calibration.race.map(({ scenario, byVoters }) =>
      row([
        scenario.name,
        scenario.shares.join(' / '),
        ...[...byVoters, raceTotal(byVoters)].map((tally) => rate(tally.wrongCalls, tally.calls)),
      ]),
    ),
    '',
    row([
      'out of the race below',
      'calls',
      'wrong among calls',
      'worst scenario, 10 to 100 voters',
      'worst scenario at one number of voters',
      'wrong calls where no logo is clearly best',
    ]),
    separator(6),
    ...calibration.bars.map(({ outBelow, calls, worst, worstAtVoters, hard }) =>
      row([
        `${Math.round(outBelow * 100)}%`,
        String(calls.calls),
        rate(calls.wrongCalls, calls.calls),
        rate(worst.wrongCalls, worst.calls),
        rate(worstAtVoters.wrongCalls, worstAtVoters.calls),
        rate(hard.wrongCalls, hard.calls),
      ]),
    ),
  ].join('\n');
}
