/**
 * docs/performance.md from a bench's measurements. Its prose is in bench/report, Mustache templates: performance.md
 * for the page, one per section, budgets/ with each section's rows of the budget table, misses/ with a paragraph per
 * budget missed. The functions here compute their views: figures formatted, lists, and flags for what is conditional.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'mustache';
import { metricValue, type K6Run } from './k6';
import { MOBILE_PROFILE, type PageLoad } from './page-load';
import type { ReadCosts } from './database';
import { OFFICE_VOTERS, type PollKindResults, type ProofOfWorkResults } from './proof-of-work';
import { LIGHTHOUSE_RUNS, type LighthouseLevel } from './lighthouse-levels';
import { LIGHTHOUSE_CATEGORIES, lcpElementName, type LighthouseCategory, type LighthouseSummary } from './lighthouse';
import {
  BULK_BATCH,
  FLOW_CONCURRENCY,
  PROBED,
  REFERENCE_SHARE_GOAL,
  probeMs,
  type FlowCosts,
  type FlowShape,
  type ScaleResults,
} from './scale';
import type { LiveResults } from './live';
import { LOGO_KIND_DESCRIPTIONS, SLOW_PHONE_RUNS, type LogoKindsResults } from './logo-kinds';
import { SLOW_PHONE, SLOW_PHONE_BUDGET_MS } from './slow-phone';
import { median, percentile } from './stats';

export interface StormStep {
  targetRate: number;
  achievedRate: number;
  p50Ms: number;
  p95Ms: number;
  failedRate: number;
  dropped: number;
  /** p95 under the budget, under 1 % failed and under 1 % of the arrivals dropped. */
  sustained: boolean;
}

export interface BenchResults {
  machine: {
    cpu: string;
    memoryGiB: number;
    kernel: string;
    node: string;
    k6: string;
    nginx: string;
    ferretdb: string;
    loadAtStart: number[];
    loadDuring: { max: number; mean: number };
    loadAtEnd: number[];
  };
  command: string;
  date: string;
  durationSeconds: number;
  buildSeconds: number;
  rateLimits: Record<string, string>;
  /** The same storm on the reference server's route (bench/reference/server.ts), just before the storm. */
  referenceStorm: { steps: StormStep[] };
  /** One k6 run per step of rising rates. */
  storm: { runs: K6Run[]; steps: StormStep[]; stepSeconds: number; vus: number };
  exact: { polls: number; votes: number; expectedVotes: number; mismatches: number; uncertain: number };
  readCosts: ReadCosts;
  traffic: K6Run;
  /** Alternating rounds against each. */
  logos: { gateway: K6Run[]; nginxStatic: K6Run[]; sizes: number[]; clients: number; roundSeconds: number };
  creation: { run: K6Run; sizes: number[] };
  page: { loads: PageLoad[]; medianLcpMs: number; cpuOnly: PageLoad };
  /** On the empty store and with 100 000 votes stored. */
  lighthouse: LighthouseLevel[];
  proofOfWork: ProofOfWorkResults;
  memory: { atRest: Record<string, number>; underStorm: Record<string, { peak: number; mean: number }> };
  scale: ScaleResults;
  live: LiveResults;
  /** Absent from the measurements of runs before it was measured, which LOGOVOTE_BENCH_RENDER can still render. */
  logoKinds?: LogoKindsResults;
}

/** Budgets of votes, logos, the voting page's first load and poll creation (1 kB = 1000 bytes). */
export const BUDGETS = {
  voteShareOfReference: 0.5,
  logoShareOfStatic: 0.8,
  firstLoadJsBytes: 150_000,
  lcpMs: 2000,
  /** A creation with four 2 MB logos, every moderation check included. */
  creationP95Ms: 1500,
} as const;

/**
 * Budgets of the rising proof of work: the 200th voter of one address waits at most this long on a phone
 * four times slower than this machine, and a script pays at least this much CPU for 200 voters of one address.
 */
export const PROOF_OF_WORK_BUDGETS = { phoneWaitMs: 3000, scriptCpuMs: 60_000 } as const;

/** Budgets of the pages: Lighthouse (mobile), performance and LCP on the voters' pages, the other categories on every page. */
export const LIGHTHOUSE_BUDGETS = {
  performancePages: ['/', '/vote/:id', '/results/:id'],
  performance: 100,
  lcpMs: 1500,
  otherCategories: 100,
} as const;

/** Budgets of the hot paths: at 100 000 stored votes (p95), and at 1 000 000 within a factor of that. */
export const SCALE_BUDGETS = {
  /** The product's voter flows/s ÷ the reference flows/s, in each shape (a ratio: the machine's speed cancels out). */
  referenceShare: REFERENCE_SHARE_GOAL,
  commandsPerFlow: 6,
  p95AtHundredThousandMs: { session_view: 100, my_vote: 100, first_vote: Number.NaN, changed_vote: 150, admin_page: 300 },
  factorAtMillion: 3,
} as const;
const PROBE_LABELS: Record<(typeof PROBED)[number], string> = {
  session_view: 'session view',
  my_vote: 'my-vote',
  first_vote: 'first vote',
  changed_vote: 'changed vote',
  admin_page: 'admin first page',
};

const P95_BUDGET_MS = 100;
const MB = 1000 * 1000;
const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const ms = (value: number) => `${fixed(value, value < 10 ? 1 : 0)} ms`;
const kb = (bytes: number) => `${fixed(bytes / 1000, 1)} kB`;
const mb = (bytes: number) => `${fixed(bytes / MB, bytes < 10 * MB ? 2 : 0)} MB`;
const seconds = (value: number) => `${fixed(value / 1000, 2)} s`;
const verdict = (met: boolean) => (met ? '**met**' : '**missed**');
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
const requestRates = (runs: K6Run[]) => runs.map((run) => metricValue(run, 'http_reqs', 'rate'));
const shortUrl = (url: string) => {
  const { pathname } = new URL(url);
  return pathname.length > 60 ? `${pathname.slice(0, 57)}...` : pathname;
};

const TEMPLATES = join(__dirname, '..', 'report');
const template = (name: string) => readFileSync(join(TEMPLATES, `${name}.md`), 'utf8');
/** Fills bench/report/<name>.md (its partials from the same folder) with `view`, unescaped: the report is Markdown, not HTML. */
const fill = (name: string, view: object) => render(template(name), view, template, { escape: String });
/** Why a budget is missed: one paragraph of bench/report/misses, without its file's final newline. */
const miss = (name: string, view: object) => fill(`misses/${name}`, view).replace(/\n$/, '');
/** A section's rows of the budget table: the lines of bench/report/budgets/<name>.md. */
const budgetRows = (name: string, view: object) =>
  fill(`budgets/${name}`, view)
    .split('\n')
    .filter((row) => row !== '');
/** The items with the last one marked, for the templates' separators (`{{^last}}; {{/last}}`). */
const listed = <T extends object>(items: T[]) => items.map((item, index) => ({ ...item, last: index === items.length - 1 }));

/** The best sustained step: the highest achieved rate whose p95 stayed under budget. */
export function sustainedVoteRate(steps: StormStep[]): StormStep | undefined {
  return steps.filter((step) => step.sustained).sort((a, b) => b.achievedRate - a.achievedRate)[0];
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** One kind of poll's figures: the 200th voter's wait on a phone, and a script's CPU for 200 voters. */
function proofOfWorkFigures(results: ProofOfWorkResults, kind: PollKindResults) {
  const phoneMs = kind.pageSolves.map((solve) => solve.solveMs * results.cpuSlowdown);
  // A solve tries counters from 0 up to the solution: its time over its attempts is the time of one attempt.
  const phoneMsPerAttempt = sum(phoneMs) / sum(kind.pageSolves.map((solve) => solve.attempts));
  const solves = kind.script.flatMap((level) => level.solves);
  const cpuMsPerAttempt = sum(solves.map((solve) => solve.cpuMs)) / sum(solves.map((solve) => solve.attempts));
  return {
    phone: { median: percentile(phoneMs, 0.5), p95: percentile(phoneMs, 0.95), max: Math.max(...phoneMs), all: phoneMs },
    // The solution is drawn below twice the level's attempts: the longest a phone can wait.
    phoneBoundMs: 2 * kind.officeAttempts * phoneMsPerAttempt,
    phoneMsPerAttempt,
    cpuMsPerAttempt,
    scriptLevels: kind.script.map((level) => ({ ...level, expectedCpuMs: level.attempts * cpuMsPerAttempt })),
    scriptTotalMs: sum(kind.script.map((level) => level.voters * level.attempts * cpuMsPerAttempt)),
    scriptSolves: solves.length,
  };
}

const KIND_NAMES: Record<PollKindResults['kind'], string> = {
  standard: 'a poll',
  sharedNetwork: 'a poll created for a shared network',
};

/** The proof-of-work section: the 200th voter's wait on a phone, and a script's CPU for 200 voters of one address. */
export function renderProofOfWork(results: ProofOfWorkResults): { budgetRows: string[]; section: string; misses: string[] } {
  const kinds = results.kinds.map((kind) => {
    const figures = proofOfWorkFigures(results, kind);
    const { phone } = figures;
    const phoneMet = figures.phoneBoundMs <= PROOF_OF_WORK_BUDGETS.phoneWaitMs;
    const scriptMet = figures.scriptTotalMs >= PROOF_OF_WORK_BUDGETS.scriptCpuMs;
    return {
      ...kind,
      name: KIND_NAMES[kind.kind],
      standard: kind.kind === 'standard',
      solveCount: phone.all.length,
      solveSeconds: phone.all.map((value) => fixed(value / 1000, 2)).join(', '),
      phone: { median: seconds(phone.median), p95: seconds(phone.p95), max: seconds(phone.max) },
      phoneMsPerAttempt: fixed(figures.phoneMsPerAttempt, 2),
      phoneBound: seconds(figures.phoneBoundMs),
      phoneMissed: !phoneMet,
      phoneVerdict: verdict(phoneMet),
      cpuMsPerAttempt: fixed(figures.cpuMsPerAttempt, 3),
      scriptLevels: figures.scriptLevels.map((level) => ({
        ...level,
        solves: level.solves.map((solve) => ms(solve.cpuMs)).join(', '),
        expectedCpu: ms(level.expectedCpuMs),
      })),
      scriptSolves: figures.scriptSolves,
      scriptTotal: fixed(figures.scriptTotalMs / 1000, 1),
      scriptMissed: kind.kind === 'standard' && !scriptMet,
      scriptVerdict: kind.kind === 'standard' ? verdict(scriptMet) : '',
    };
  });
  const view = {
    ...results,
    officeVoters: OFFICE_VOTERS,
    phoneBudget: seconds(PROOF_OF_WORK_BUDGETS.phoneWaitMs),
    scriptBudget: fixed(PROOF_OF_WORK_BUDGETS.scriptCpuMs / 1000, 0),
    kinds: listed(kinds),
  };
  const misses = kinds.flatMap((kind) => [
    ...(kind.phoneMissed ? [miss('proof-of-work-phone', { ...view, ...kind })] : []),
    ...(kind.scriptMissed ? [miss('proof-of-work-script', { ...view, ...kind })] : []),
  ]);
  return { budgetRows: budgetRows('proof-of-work', view), section: fill('proof-of-work', view), misses };
}

const CATEGORY_LABELS: Record<LighthouseCategory, string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};
const storeName = (level: LighthouseLevel) => (level.storedVotes === 0 ? 'empty store' : `${level.storedVotes.toLocaleString('en')} votes`);
const cell = (text: string) => text.replaceAll('|', '\\|');
const pageAt = (level: LighthouseLevel, label: string) => level.pages.find((page) => page.label === label);
const measuredPages = (levels: LighthouseLevel[]) => levels.flatMap((level) => level.pages.map((page) => ({ level, page })));

/** One page's Lighthouse figures at one level: its row of the section, and its part of a miss. */
function lighthousePage({ level, page }: { level: LighthouseLevel; page: LighthouseSummary }) {
  return {
    label: page.label,
    store: storeName(level),
    performance: fixed(page.scores.performance),
    runScores: page.runs.map((run) => fixed(run.performance)).join(', '),
    lcp: seconds(page.metrics.lcpMs),
    fcp: seconds(page.metrics.fcpMs),
    tbt: ms(page.metrics.tbtMs),
    cls: fixed(page.metrics.cls, 3),
    accessibility: fixed(page.scores.accessibility),
    bestPractices: fixed(page.scores['best-practices']),
    seo: fixed(page.scores.seo),
    element: cell(
      lcpElementName(page)
        .replace(/\s+/g, ' ')
        .replace(/^(.{60}).+? \(`/, '$1… (`'),
    ),
    lcpParts: Object.entries(page.lcp.partsMs)
      .map(([part, value]) => `${part} ${ms(value)}`)
      .join(', '),
    lost: page.failing.performance.map((audit) => `\`${audit.id}\` ${fixed(audit.score, 2)}`).join(', '),
  };
}

/** Lighthouse's budget rows: performance and LCP on the voters' pages, the lowest score of each other category. */
function lighthouseBudgetsView(levels: LighthouseLevel[]) {
  const measured = measuredPages(levels);
  return {
    runs: LIGHTHOUSE_RUNS,
    sizes: levels.map(storeName).join(' / '),
    performanceBudget: LIGHTHOUSE_BUDGETS.performance,
    lcpBudget: seconds(LIGHTHOUSE_BUDGETS.lcpMs),
    otherCategoriesBudget: LIGHTHOUSE_BUDGETS.otherCategories,
    performancePages: LIGHTHOUSE_BUDGETS.performancePages.map((label) => {
      const pages = levels.map((level) => pageAt(level, label));
      const scores = pages.map((page) => page?.scores.performance ?? Number.NaN);
      const lcps = pages.map((page) => page?.metrics.lcpMs ?? Number.NaN);
      return {
        label,
        scores: scores.map((score) => `**${fixed(score)}**`).join(' / '),
        scoreVerdict: verdict(pages.length > 0 && scores.every((score) => score >= LIGHTHOUSE_BUDGETS.performance)),
        lcps: lcps.map((lcp) => `**${seconds(lcp)}**`).join(' / '),
        lcpVerdict: verdict(pages.length > 0 && lcps.every((lcp) => lcp <= LIGHTHOUSE_BUDGETS.lcpMs)),
      };
    }),
    pageLabels: [...new Set(measured.map(({ page }) => `\`${page.label}\``))].join(', '),
    categories: LIGHTHOUSE_CATEGORIES.filter((each) => each !== 'performance').map((category) => {
      const lowest = Math.min(...measured.map(({ page }) => page.scores[category]));
      const where = measured
        .filter(({ page }) => page.scores[category] === lowest)
        .map(({ level, page }) => `\`${page.label}\`, ${storeName(level)}`)
        .join('; ');
      return {
        name: CATEGORY_LABELS[category],
        lowest: fixed(lowest),
        where: lowest < LIGHTHOUSE_BUDGETS.otherCategories ? where : '',
        verdict: verdict(measured.length > 0 && lowest >= LIGHTHOUSE_BUDGETS.otherCategories),
      };
    }),
  };
}

/** The Lighthouse section: the levels measured, a row per page and level, the audits not passed. */
function lighthouseView(levels: LighthouseLevel[]) {
  const measured = measuredPages(levels);
  const first = measured[0]?.page;
  return {
    lighthouseVersion: first?.lighthouseVersion ?? 'n/a',
    chromium: /Chrome\/([\d.]+)/.exec(first?.browserVersion ?? '')?.[1] ?? 'unknown',
    runs: LIGHTHOUSE_RUNS,
    levels: listed(
      levels.map((level) => {
        const indexes = level.pages.map((page) => page.benchmarkIndex);
        return {
          ...level,
          empty: level.storedVotes === 0,
          storedVotes: level.storedVotes.toLocaleString('en'),
          busyPercent: Math.round(level.busyShare * 100),
          load: load(level.load),
          lowestIndex: fixed(Math.min(...indexes)),
          highestIndex: fixed(Math.max(...indexes)),
        };
      }),
    ),
    pages: measured.map(lighthousePage),
    profile: MOBILE_PROFILE,
    notPassed: measured.flatMap(({ level, page }) => {
      const audits = LIGHTHOUSE_CATEGORIES.flatMap((category) =>
        page.failing[category].map((audit) => `${CATEGORY_LABELS[category]} \`${audit.id}\` ${fixed(audit.score, 2)}`),
      );
      return audits.length > 0 ? [{ label: page.label, store: storeName(level), audits: audits.join(', ') }] : [];
    }),
    failedRuns: measured
      .filter(({ page }) => page.failedRuns.length > 0)
      .map(({ level, page }) => `\`${page.label}\` (${storeName(level)}): ${page.failedRuns.join(', ')}`)
      .join('; '),
    warnings: [...new Set(measured.flatMap(({ page }) => page.warnings))].map((warning) => cell(warning)).join(' '),
  };
}

/** Lighthouse on the four pages, on the empty store and with 100 000 votes stored: budget rows, a section, and why a budget is missed. */
export function renderLighthouse(levels: LighthouseLevel[]): { budgetRows: string[]; section: string; misses: string[] } {
  const budgets = lighthouseBudgetsView(levels);
  const slow = LIGHTHOUSE_BUDGETS.performancePages.flatMap((label) =>
    levels.flatMap((level) => {
      const page = pageAt(level, label);
      return page && (page.scores.performance < LIGHTHOUSE_BUDGETS.performance || page.metrics.lcpMs > LIGHTHOUSE_BUDGETS.lcpMs)
        ? [{ level, page }]
        : [];
    }),
  );
  const short = measuredPages(levels).filter(({ page }) =>
    LIGHTHOUSE_CATEGORIES.some((category) => category !== 'performance' && page.scores[category] < LIGHTHOUSE_BUDGETS.otherCategories),
  );
  const misses = [
    ...(slow.length > 0
      ? [
          miss('lighthouse-performance', {
            ...budgets,
            slow: listed(slow.map(lighthousePage)),
            onlyBlockingTime: slow.every(({ page }) => page.failing.performance.every((audit) => audit.id === 'total-blocking-time')),
          }),
        ]
      : []),
    ...(short.length > 0 ? [miss('lighthouse-categories', { ...budgets, short: listed(short.map(lighthousePage)) })] : []),
  ];
  return { budgetRows: budgetRows('lighthouse', budgets), section: fill('lighthouse', lighthouseView(levels)), misses };
}

/** Budgets of the first load for each kind of logo set: Lighthouse (mobile) on the three pages, and the slow phone. */
export const LOGO_KINDS_BUDGETS = { performance: 95, lcpMs: 1500 } as const;

/** First load whatever the logos: budget rows (each figure the median of its runs, with every run) and the section. */
export function renderLogoKinds(results: LogoKindsResults): { budgetRows: string[]; section: string; misses: string[] } {
  const spread = (values: number[], format: (value: number) => string) => values.map(format).join(', ');
  const page = (summary: LighthouseSummary, kind: string) => ({
    label: summary.label,
    kind,
    runs: LIGHTHOUSE_RUNS,
    performance: fixed(summary.scores.performance),
    runScores: spread(
      summary.runs.map((run) => run.performance),
      (value) => fixed(value),
    ),
    performanceBudget: LOGO_KINDS_BUDGETS.performance,
    performanceVerdict: verdict(summary.scores.performance >= LOGO_KINDS_BUDGETS.performance),
    lcp: seconds(summary.metrics.lcpMs),
    runLcps: spread(
      summary.runs.map((run) => run.lcpMs),
      seconds,
    ),
    lcpBudget: seconds(LOGO_KINDS_BUDGETS.lcpMs),
    lcpVerdict: verdict(summary.metrics.lcpMs <= LOGO_KINDS_BUDGETS.lcpMs),
    tbt: ms(summary.metrics.tbtMs),
    runTbts: spread(
      summary.runs.map((run) => run.tbtMs),
      ms,
    ),
    cls: fixed(summary.metrics.cls, 3),
    element: cell(
      lcpElementName(summary)
        .replace(/\s+/g, ' ')
        .replace(/^(.{60}).+? \(`/, '$1… (`'),
    ),
  });
  const kinds = results.kinds.map(({ kind, slowPhone }) => {
    const figure = (pick: (load: (typeof slowPhone)[number]) => number) => ({
      median: seconds(median(slowPhone.map(pick))),
      runs: spread(slowPhone.map(pick), seconds),
    });
    const question = figure((load) => load.questionMs);
    const firstLogo = figure((load) => load.firstLogoMs);
    const voteButton = figure((load) => load.voteButtonMs);
    const tap = figure((load) => load.tapMs);
    const voted = figure((load) => load.votedMs);
    const slowest = median(slowPhone.map((load) => Math.max(load.questionMs, load.voteButtonMs)));
    return {
      kind,
      question: question.median,
      questionRuns: question.runs,
      firstLogo: firstLogo.median,
      firstLogoRuns: firstLogo.runs,
      voteButton: voteButton.median,
      voteButtonRuns: voteButton.runs,
      tap: tap.median,
      tapRuns: tap.runs,
      voted: voted.median,
      votedRuns: voted.runs,
      slowRuns: SLOW_PHONE_RUNS,
      slowBudget: seconds(SLOW_PHONE_BUDGET_MS),
      slowVerdict: verdict(slowest <= SLOW_PHONE_BUDGET_MS),
    };
  });
  const view = {
    pages: [page(results.landing, 'any'), ...results.kinds.flatMap(({ kind, pages }) => pages.map((summary) => page(summary, kind)))],
    kinds,
    descriptions: listed(Object.entries(LOGO_KIND_DESCRIPTIONS).map(([kind, description]) => ({ kind, description }))),
    runs: LIGHTHOUSE_RUNS,
    busyPercent: Math.round(results.busyShare * 100),
    settleSeconds: results.settleSeconds,
    load: load(results.load),
    slowPhone: SLOW_PHONE.name,
    slowRuns: SLOW_PHONE_RUNS,
    slowBudget: seconds(SLOW_PHONE_BUDGET_MS),
  };
  const rows = budgetRows('logo-kinds', view);
  // A row missed: its first cell names it.
  const missed = rows
    .filter((row) => row.endsWith(`| ${verdict(false)} |`))
    .map((row) => ({ label: row.slice('| '.length, row.indexOf(' | ')) }));
  return {
    budgetRows: rows,
    section: fill('logo-kinds', view),
    misses: missed.length > 0 ? [miss('logo-kinds', { missed: listed(missed) })] : [],
  };
}

const SHAPE_TITLES: Record<FlowShape['shape'], string> = { spread: 'spread over many polls', onePoll: 'all on one poll' };
/** The database's busiest tables, by rows read per voter flow, listed for each shape. */
const TOP_TABLES = 3;
const perFlow = (value: number, voters: number) => fixed(value / voters, 2);

const commandsOf = (costs: FlowCosts) => sum(Object.values(costs.dbCommands).flatMap((counts) => Object.values(counts)));
const failuresOf = (costs: FlowCosts) =>
  Object.entries(costs.failures)
    .map(([failure, n]) => `${n} × ${failure}`)
    .join(', ');

/** One voter-flow shape's figures: its rate against the reference's, its counts, and what a voter cost each process and the database. */
function shapeView(shape: FlowShape, cores: number) {
  const commands = commandsOf(shape);
  const rate = shape.voters / shape.seconds;
  const referenceRate = shape.reference.voters / shape.reference.seconds;
  const share = rate / referenceRate;
  const ferretCpu = shape.cpu.find((each) => each.name === 'FerretDB')?.seconds ?? Number.NaN;
  const postgresCpu = shape.cpu.find((each) => each.name === 'PostgreSQL')?.seconds ?? Number.NaN;
  // A voter's CPU on one process bounds the voters/s that all the cores could carry, were that process alone.
  const ceiling = (cpuSeconds: number) => fixed((cores * shape.voters) / cpuSeconds);
  const requests = (costs: FlowCosts) =>
    (['session', 'myVote', 'vote'] as const)
      .map((name) => `${ms(costs.requestMs[name].p50)} / ${ms(costs.requestMs[name].p95)}`)
      .join(', ');
  return {
    title: SHAPE_TITLES[shape.shape],
    ...shape.exact,
    onePoll: shape.polls === 1,
    polls: shape.polls,
    voters: shape.voters.toLocaleString('en'),
    seconds: fixed(shape.seconds),
    voterRate: fixed(rate),
    failedFlows: shape.failedFlows,
    failures: failuresOf(shape),
    requests: requests(shape),
    load: load(shape.load),
    reference: {
      voters: shape.reference.voters.toLocaleString('en'),
      seconds: fixed(shape.reference.seconds),
      rate: fixed(referenceRate),
      failedFlows: shape.reference.failedFlows,
      failures: failuresOf(shape.reference),
      requests: requests(shape.reference),
      commandsPerFlow: perFlow(commandsOf(shape.reference), shape.reference.voters),
      cpuPerVoter: fixed((shape.reference.machineCpuSeconds * 1000) / shape.reference.voters, 1),
    },
    share: fixed(share, 2),
    shareGoal: SCALE_BUDGETS.referenceShare,
    shareVerdict: verdict(share >= SCALE_BUDGETS.referenceShare && shape.failedFlows === 0 && shape.exact.mismatches === 0),
    commandsGoal: SCALE_BUDGETS.commandsPerFlow,
    commandsVerdict: verdict(commands / shape.voters <= SCALE_BUDGETS.commandsPerFlow),
    windowSeconds: fixed(shape.windowSeconds),
    pendingAfter: shape.pendingAfter,
    commandsPerFlow: perFlow(commands, shape.voters),
    rowsPerFlow: perFlow(sum(Object.values(shape.rowsRead)), shape.voters),
    cpuPerVoter: fixed((shape.machineCpuSeconds * 1000) / shape.voters, 1),
    coresCarry: ceiling(shape.machineCpuSeconds),
    ferretMsPerCommand: fixed((ferretCpu * 1000) / commands, 2),
    ferretMsPerVoter: fixed((ferretCpu * 1000) / shape.voters, 1),
    ferretCeiling: ceiling(ferretCpu),
    databaseCeiling: ceiling(ferretCpu + postgresCpu),
  };
}

/** A column of the scale section's cost tables: a shape's flows, or the reference flows after it. */
interface CostColumn {
  title: string;
  costs: FlowCosts;
}

/** Rows of a table with a column per shape and reference: `value` of each for each of `keys` (rows zero in every column left out). */
function columnRows(
  columns: CostColumn[],
  keys: string[][],
  value: (costs: FlowCosts, key: string[]) => number,
  format: (n: number, costs: FlowCosts) => string,
) {
  return keys
    .filter((key) => columns.some(({ costs }) => value(costs, key) !== 0))
    .map((key) => ({ key, values: columns.map(({ costs }) => format(value(costs, key), costs)) }));
}

/** The scale section and its budget rows: the voter flows of each shape against the reference, what they cost, the bulk load and the probes per level. */
function scaleView(scale: ScaleResults) {
  const { shapes, cores } = scale;
  const [, hundredThousand, million] = scale.probes;
  const columns: CostColumn[] = shapes.flatMap((shape) => [
    { title: SHAPE_TITLES[shape.shape], costs: shape },
    { title: `reference, ${SHAPE_TITLES[shape.shape]}`, costs: shape.reference },
  ]);
  const flowsPer = (n: number, costs: FlowCosts) => perFlow(n, costs.voters);
  const servers = [...new Set(columns.flatMap(({ costs }) => Object.keys(costs.dbCommands)))];
  const commandNames = [
    ...new Set(columns.flatMap(({ costs }) => Object.values(costs.dbCommands).flatMap((counts) => Object.keys(counts)))),
  ].sort();
  const commandOf = (costs: FlowCosts, server: string, command: string) =>
    sum(Object.entries(costs.dbCommands).flatMap(([name, counts]) => (server === '' || name === server ? [counts[command] ?? 0] : [])));
  const commandRows = [...servers, ''].flatMap((server) =>
    columnRows(
      columns,
      [...commandNames, ''].map((command) => [server, command]),
      (costs, [name, command]) =>
        command === '' ? sum(commandNames.map((each) => commandOf(costs, name!, each))) : commandOf(costs, name!, command!),
      flowsPer,
    ),
  );
  const processNames = [...new Set(columns.flatMap(({ costs }) => costs.cpu.map((each) => each.name)))];
  const cpuOf = (costs: FlowCosts, name: string) => costs.cpu.find((each) => each.name === name)?.seconds ?? 0;
  const msPerVoter = (seconds: number, costs: FlowCosts) => `${fixed(seconds, 1)} s, **${fixed((seconds * 1000) / costs.voters, 2)} ms**`;
  const rest = (costs: FlowCosts) => costs.machineCpuSeconds - sum(costs.cpu.map((each) => each.seconds));
  return {
    cores,
    concurrency: FLOW_CONCURRENCY,
    topTables: TOP_TABLES,
    shapes: shapes.map((shape) => shapeView(shape, cores)),
    columns: columns.map(({ title }) => title),
    smallerOnePoll: shapes.length > 1 && shapes[1]!.voters < shapes[0]!.voters,
    commandRows: commandRows.map(({ key: [server, command], values }) => ({
      service: server === '' ? 'all servers' : server,
      command: command === '' ? 'all' : command,
      total: command === '',
      values,
    })),
    tableRanks: Array.from({ length: TOP_TABLES }, (_, rank) => ({
      rank: rank + 1,
      values: columns.map(({ costs }) => {
        const [table, rows] = Object.entries(costs.rowsRead).sort(([, a], [, b]) => b - a)[rank] ?? [];
        return table === undefined ? '' : `${table}: ${perFlow(rows!, costs.voters)}`;
      }),
    })),
    cpuRows: [
      ...columnRows(
        columns,
        processNames.map((name) => [name]),
        (costs, [name]) => cpuOf(costs, name!),
        msPerVoter,
      ).map(({ key, values }) => ({ name: key[0], values })),
      {
        name: 'the rest of the machine (anything else it ran)',
        values: columns.map(({ costs }) => msPerVoter(rest(costs), costs)),
      },
      { name: 'all', values: columns.map(({ costs }) => msPerVoter(costs.machineCpuSeconds, costs)) },
    ],
    bulk: scale.bulk && { ...scale.bulk, votes: scale.bulk.votes.toLocaleString('en'), seconds: fixed(scale.bulk.seconds) },
    bulkBatch: BULK_BATCH,
    pendingAtProbe: listed(scale.pendingAtProbe.map((count) => ({ count }))),
    anyProbes: scale.probes.length > 0,
    probes: scale.probes.map((probe) => ({ storedVotes: probe.storedVotes.toLocaleString('en'), load: probe.load[0]!.toFixed(2) })),
    factorBudget: SCALE_BUDGETS.factorAtMillion,
    paths: (scale.probes.length > 0 ? PROBED : []).map((name) => {
      const budget = SCALE_BUDGETS.p95AtHundredThousandMs[name];
      const at100k = hundredThousand ? probeMs(hundredThousand, name, 'p(95)') : Number.NaN;
      const at1m = million ? probeMs(million, name, 'p(95)') : Number.NaN;
      return {
        label: PROBE_LABELS[name],
        levels: scale.probes.map((probe) => ({ p50: ms(probeMs(probe, name, 'med')), p95: ms(probeMs(probe, name, 'p(95)')) })),
        budgeted: Number.isFinite(budget),
        budget,
        at100k: ms(at100k),
        budgetVerdict: verdict(at100k <= budget),
        at1m: ms(at1m),
        factor: fixed(at1m / at100k, 2),
        factorVerdict: verdict(at1m / at100k <= SCALE_BUDGETS.factorAtMillion),
      };
    }),
  };
}

/** The scale section: real voter flows in two shapes, and the hot paths at 0, 100 000 and 1 000 000. */
export function renderScale(scale: ScaleResults): { budgetRows: string[]; section: string } {
  const view = scaleView(scale);
  return { budgetRows: budgetRows('scale', view), section: fill('scale', view) };
}

/** The live results' budgets: every open page updated within a second, at a cost per vote independent of viewers. */
export const LIVE_BUDGETS = { deliveryP95Ms: 1000, viewers: 1000 } as const;

/** Live results (docs/live-results.md): delivery to 1 000 open streams, what they hold, what a vote costs. */
export function renderLive(live: LiveResults): { budgetRows: string[]; section: string } {
  const delivered = live.deliveries.received === live.deliveries.expected;
  // Independent of viewers: within the noise of the background work's reads (a tenth, or two reads a vote).
  const independent = live.readsPerVote.allViewers <= Math.max(live.readsPerVote.oneViewer * 1.1, live.readsPerVote.oneViewer + 2);
  const footprint = (name: 'gateway' | 'sessions') => {
    const { before, withStreams } = live.footprint[name];
    return {
      before: mb(before.residentBytes),
      filesBefore: fixed(before.openFiles),
      with: mb(withStreams.residentBytes),
      filesWith: fixed(withStreams.openFiles),
      perStream: kb((withStreams.residentBytes - before.residentBytes) / live.viewers),
    };
  };
  const view = {
    ...live,
    ...live.deliveries,
    perAddress: Math.ceil(live.viewers / live.addresses),
    openSeconds: fixed(live.openSeconds, 1),
    delivery: { p50: ms(live.deliveryMs.p50), p95: ms(live.deliveryMs.p95), max: ms(live.deliveryMs.max) },
    vote: { p50: ms(live.voteMs.p50), max: ms(live.voteMs.max) },
    loadBefore: fixed(live.load[0], 2),
    loadAfter: fixed(live.load[1], 2),
    gateway: footprint('gateway'),
    sessions: footprint('sessions'),
    readsPerVote: { oneViewer: fixed(live.readsPerVote.oneViewer, 1), allViewers: fixed(live.readsPerVote.allViewers, 1) },
    idleReads: { oneViewer: fixed(live.idleReadsPerSecond.oneViewer, 1), allViewers: fixed(live.idleReadsPerSecond.allViewers, 1) },
    deliveryBudget: ms(LIVE_BUDGETS.deliveryP95Ms),
    viewersBudget: LIVE_BUDGETS.viewers,
    deliveryVerdict: verdict(live.deliveryMs.p95 <= LIVE_BUDGETS.deliveryP95Ms && delivered && live.viewers >= LIVE_BUDGETS.viewers),
    readsVerdict: verdict(independent),
  };
  return { budgetRows: budgetRows('live', view), section: fill('live', view) };
}

/** The vote storm's steps, for the table in bench/report/storm-steps.md. */
const stormSteps = (steps: StormStep[]) =>
  steps.map((step) => ({
    ...step,
    achievedRate: fixed(step.achievedRate, 1),
    p50: ms(step.p50Ms),
    p95: ms(step.p95Ms),
    failed: fixed(step.failedRate * 100, 2),
    dropped: fixed(step.dropped),
  }));

/** The vote storm's, the counts' and poll creation's figures, budget rows and step table (also `LOGOVOTE_BENCH_ONLY=storm`'s output). */
export function renderStorm({
  referenceStorm,
  storm,
  exact,
  creation,
}: Pick<BenchResults, 'referenceStorm' | 'storm' | 'exact' | 'creation'>) {
  const sustainedRate = sustainedVoteRate(storm.steps)?.achievedRate ?? 0;
  const referenceRate = sustainedVoteRate(referenceStorm.steps)?.achievedRate ?? Number.NaN;
  const voteShare = sustainedRate / referenceRate;
  const create = (metric: string, stat: string) => metricValue(creation.run, metric, stat);
  const createP50 = create('http_req_duration{name:create}', 'med');
  const checksP50 = create('create_checks', 'med');
  const createP95 = create('http_req_duration{name:create}', 'p(95)');
  const met = {
    votes: voteShare >= BUDGETS.voteShareOfReference,
    creation: createP95 <= BUDGETS.creationP95Ms,
    counts: exact.mismatches === 0 && exact.uncertain === 0 && exact.votes === exact.expectedVotes,
  };
  const view = {
    ...exact,
    reference: { steps: stormSteps(referenceStorm.steps) },
    steps: stormSteps(storm.steps),
    sustainedRate: fixed(sustainedRate),
    referenceRate: fixed(referenceRate),
    voteShare: fixed(voteShare, 2),
    voteShareBudget: BUDGETS.voteShareOfReference,
    largestLogo: mb(Math.max(...creation.sizes)),
    createP50: ms(createP50),
    checksP50: ms(checksP50),
    createP95: ms(createP95),
    creationBudget: seconds(BUDGETS.creationP95Ms),
    verdicts: { votes: verdict(met.votes), creation: verdict(met.creation), counts: verdict(met.counts) },
  };
  return {
    budgetRows: budgetRows('storm', view),
    section: fill('storm', view),
    met,
    figures: { sustainedRate, referenceRate, voteShare, createP50, checksP50, createP95 },
  };
}

type StormFigures = ReturnType<typeof renderStorm>['figures'];

/** The votes section: the reference storm's and the storm's steps, the counts after it and what the database's reads cost. */
function votesView({ referenceStorm, storm, exact, readCosts }: BenchResults, figures: StormFigures) {
  return {
    ...exact,
    storm,
    reference: { steps: stormSteps(referenceStorm.steps) },
    steps: stormSteps(storm.steps),
    p95Budget: P95_BUDGET_MS,
    referenceRate: fixed(figures.referenceRate),
    sustainedRate: fixed(figures.sustainedRate, 1),
    voteShare: fixed(figures.voteShare, 2),
    readCosts: { votes: readCosts.votes, findById: ms(readCosts.findByIdMs), seats: ms(readCosts.seatsMs), counts: ms(readCosts.countsMs) },
  };
}

/** The mixed voter traffic section: each request's times. */
function trafficView(traffic: K6Run) {
  return {
    visitors: fixed(metricValue(traffic, 'iterations', 'count')),
    requestRate: fixed(metricValue(traffic, 'http_reqs', 'rate')),
    requests: ['session', 'logo', 'my_vote', 'vote', 'results'].map((name) => {
      const metric = `http_req_duration{name:${name}}`;
      const stat = (statistic: string) => ms(metricValue(traffic, metric, statistic));
      return { name, p50: stat('med'), p95: stat('p(95)'), max: stat('max') };
    }),
  };
}

/** The logo images section and its budget row: the gateway's rounds against nginx static's. */
function logosView(logos: BenchResults['logos']) {
  const share = median(requestRates(logos.gateway)) / median(requestRates(logos.nginxStatic));
  const served = (runs: K6Run[]) => ({
    rate: fixed(median(requestRates(runs))),
    roundRates: requestRates(runs)
      .map((rate) => fixed(rate))
      .join(', '),
    p50: ms(median(runs.map((run) => metricValue(run, 'http_req_duration', 'med')))),
    p95: ms(median(runs.map((run) => metricValue(run, 'http_req_duration', 'p(95)')))),
    failed: fixed(Math.max(...runs.map((run) => metricValue(run, 'http_req_failed', 'rate'))) * 100, 2),
  });
  return {
    ...logos,
    sizes: logos.sizes.map((size) => kb(size)).join(', '),
    logoCount: logos.sizes.length,
    rounds: logos.gateway.length,
    gateway: served(logos.gateway),
    nginxStatic: served(logos.nginxStatic),
    ratio: fixed(share, 2),
    budget: BUDGETS.logoShareOfStatic,
    met: share >= BUDGETS.logoShareOfStatic,
    verdict: verdict(share >= BUDGETS.logoShareOfStatic),
  };
}

/** The poll creation section: the whole request, its checks and its storing. */
function creationView(creation: BenchResults['creation'], figures: StormFigures) {
  const create = (metric: string, stat: string) => metricValue(creation.run, metric, stat);
  return {
    creations: fixed(create('iterations', 'count')),
    sizes: creation.sizes.map((size) => mb(size)).join(', '),
    uploaded: mb(sum(creation.sizes)),
    request: { p50: ms(figures.createP50), p95: ms(figures.createP95) },
    checks: { p50: ms(figures.checksP50), p95: ms(create('create_checks', 'p(95)')) },
    store: { p50: ms(create('create_store', 'med')), p95: ms(create('create_store', 'p(95)')) },
    checksShare: fixed((figures.checksP50 / figures.createP50) * 100),
  };
}

/** The voting page's first load: its section, its budget rows, and the JavaScript and LCP misses. */
function firstLoadView(page: BenchResults['page']) {
  const firstLoad = page.loads[0]!;
  const js = firstLoad.jsBeforeFirstLogo;
  const scripts = firstLoad.resources.filter((resource) => resource.type === 'Script');
  const firstLogoRequest = firstLoad.resources.find((resource) => resource.endMs === firstLoad.firstLogoMs);
  // Six requests follow one another before a logo can be requested (see the LCP miss), and the JavaScript arrives.
  const networkFloorMs = 6 * MOBILE_PROFILE.latencyMs + (js.bodyBytes * 8) / MOBILE_PROFILE.downloadKbps;
  return {
    profile: MOBILE_PROFILE,
    acceptEncoding: firstLoad.acceptEncoding,
    js: { ...js, size: kb(js.bodyBytes), transfer: kb(js.transferBytes) },
    jsBudget: kb(BUDGETS.firstLoadJsBytes),
    jsMet: js.bodyBytes <= BUDGETS.firstLoadJsBytes,
    jsVerdict: verdict(js.bodyBytes <= BUDGETS.firstLoadJsBytes),
    loads: listed(page.loads.map((each) => ({ lcp: seconds(each.lcpMs), element: each.lcpElement }))),
    lcps: page.loads.map((each) => seconds(each.lcpMs)).join(', '),
    medianLcp: seconds(page.medianLcpMs),
    lcpBudget: seconds(BUDGETS.lcpMs),
    lcpMet: page.medianLcpMs <= BUDGETS.lcpMs,
    lcpVerdict: verdict(page.medianLcpMs <= BUDGETS.lcpMs),
    firstLogo: seconds(firstLoad.firstLogoMs),
    cpuOnly: { lcp: seconds(page.cpuOnly.lcpMs), firstLogo: seconds(page.cpuOnly.firstLogoMs) },
    scripts: scripts
      .filter((resource) => resource.endMs <= firstLoad.firstLogoMs)
      .map((resource) => ({ url: shortUrl(resource.url), size: kb(resource.bodyBytes), encoding: resource.contentEncoding || 'none' })),
    requests: firstLoad.resources
      .filter((resource) => resource.startMs <= firstLoad.firstLogoMs)
      .map((resource) => ({
        ...resource,
        url: shortUrl(resource.url),
        start: fixed(resource.startMs),
        end: fixed(resource.endMs),
        size: kb(resource.bodyBytes),
      })),
    firstLogoRequested: firstLogoRequest ? seconds(firstLogoRequest.startMs) : '',
    networkFloor: seconds(networkFloorMs),
    largestScript: kb(scripts.reduce((max, resource) => Math.max(max, resource.bodyBytes), 0)),
  };
}

/** The memory section: each process at rest and during the storm. */
const memoryView = ({ atRest, underStorm }: BenchResults['memory']) => ({
  processes: Object.entries(atRest).map(([name, bytes]) => ({
    name,
    atRest: mb(bytes),
    mean: mb(underStorm[name]?.mean ?? Number.NaN),
    peak: mb(underStorm[name]?.peak ?? Number.NaN),
  })),
});

/** The whole of docs/performance.md. */
export function renderReport(results: BenchResults): string {
  const { machine, logos, creation, page } = results;
  const storm = renderStorm(results);
  const scale = renderScale(results.scale);
  const proofOfWork = renderProofOfWork(results.proofOfWork);
  const lighthouse = renderLighthouse(results.lighthouse);
  const live = renderLive(results.live);
  const logoKinds = results.logoKinds ? renderLogoKinds(results.logoKinds) : { budgetRows: [], section: '', misses: [] };
  const votes = votesView(results, storm.figures);
  const logoImages = logosView(logos);
  const pollCreation = creationView(creation, storm.figures);
  const firstLoad = firstLoadView(page);
  const [stormVotes, stormCreation, stormCounts] = storm.budgetRows;

  // A scale row missed: its first cell names it.
  const scaleMissed = scale.budgetRows
    .filter((row) => row.endsWith(`| ${verdict(false)} |`))
    .map((row) => ({ label: row.slice('| '.length, row.indexOf(' | ')) }));
  const misses = [
    ...(scaleMissed.length > 0 ? [miss('scale', { missed: listed(scaleMissed) })] : []),
    // This paragraph gives the sustained rate in whole votes.
    ...(storm.met.votes
      ? []
      : [miss('votes', { ...votes, sustainedRate: fixed(storm.figures.sustainedRate), machineLoad: fixed(machine.loadDuring.max, 1) })]),
    ...(logoImages.met ? [] : [miss('logos', logoImages)]),
    ...(firstLoad.jsMet ? [] : [miss('javascript', firstLoad)]),
    ...(firstLoad.lcpMet ? [] : [miss('lcp', firstLoad)]),
    ...(storm.met.creation ? [] : [miss('creation', pollCreation)]),
    ...(storm.met.counts ? [] : [miss('counts', votes)]),
    ...lighthouse.misses,
    ...logoKinds.misses,
    ...proofOfWork.misses,
  ];
  // A storm step above what the stack sustains crosses its thresholds by design: only the others are listed.
  const crossed = [results.traffic, ...logos.gateway, ...logos.nginxStatic, creation.run].flatMap((run) =>
    run.crossed.map((threshold) => ({ script: run.script, threshold })),
  );

  return fill('performance', {
    command: results.command,
    date: results.date.slice(0, 10),
    duration: fixed(results.durationSeconds),
    buildSeconds: results.buildSeconds > 1 ? fixed(results.buildSeconds) : '',
    machine: {
      ...machine,
      memoryGiB: fixed(machine.memoryGiB, 1),
      loadAtStart: load(machine.loadAtStart),
      loadMean: fixed(machine.loadDuring.mean, 2),
      loadMax: fixed(machine.loadDuring.max, 2),
      loadAtEnd: load(machine.loadAtEnd),
    },
    budgetRows: [
      stormVotes,
      ...budgetRows('logo-images', logoImages),
      ...budgetRows('first-load', firstLoad),
      stormCreation,
      ...lighthouse.budgetRows,
      ...logoKinds.budgetRows,
      ...scale.budgetRows,
      ...proofOfWork.budgetRows,
      ...live.budgetRows,
      stormCounts,
    ],
    anyMissed: misses.length > 0,
    misses,
    anyCrossed: crossed.length > 0,
    crossed,
    rateLimits: Object.entries(results.rateLimits)
      .map(([name, value]) => `\`${name}=${value}\``)
      .join(', '),
    sections: {
      scale: scale.section,
      votes: fill('votes', votes),
      traffic: fill('voter-traffic', trafficView(results.traffic)),
      logos: fill('logo-images', logoImages),
      creation: fill('poll-creation', pollCreation),
      firstLoad: fill('first-load', firstLoad),
      lighthouse: lighthouse.section,
      logoKinds: logoKinds.section,
      proofOfWork: proofOfWork.section,
      live: live.section,
      memory: fill('memory', memoryView(results.memory)),
    },
  });
}
