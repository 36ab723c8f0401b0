import { cpus } from 'node:os';
import { metricValue, type K6Run } from './k6';
import { MOBILE_PROFILE, type PageLoad } from './page-load';
import type { RawUpsertResult, ReadCosts } from './database';
import { OFFICE_VOTERS, type PollKindResults, type ProofOfWorkResults } from './proof-of-work';
import { LIGHTHOUSE_RUNS, type LighthouseLevel } from './lighthouse-levels';
import { LIGHTHOUSE_CATEGORIES, lcpElementName, type LighthouseCategory, type LighthouseSummary } from './lighthouse';
import { BULK_BATCH, FLOW_VUS, PROBED, SCALE_POLLS, probeMs, type ScaleResults } from './scale';
import type { LiveResults } from './live';

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
  /** Measured on the votes collection just before and just after the storm. */
  raw: { before: RawUpsertResult; after: RawUpsertResult };
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
}

/** Budgets of issue 9 (1 kB = 1000 bytes). */
export const BUDGETS = {
  voteShareOfRaw: 0.5,
  logoShareOfStatic: 0.8,
  firstLoadJsBytes: 150_000,
  lcpMs: 2000,
  /** Issue 18: a creation with four 2 MB logos, every moderation check included. */
  creationP95Ms: 1500,
} as const;

/**
 * Budgets of the rising proof of work: the 200th voter of one address waits at most this long on a phone
 * four times slower than this machine, and a script pays at least this much CPU for 200 voters of one address.
 */
export const PROOF_OF_WORK_BUDGETS = { phoneWaitMs: 3000, scriptCpuMs: 60_000 } as const;

/** Budgets of issue 16: Lighthouse (mobile), performance and LCP on the voters' pages, the other categories on every page. */
export const LIGHTHOUSE_BUDGETS = {
  performancePages: ['/', '/vote/:id', '/results/:id'],
  performance: 100,
  lcpMs: 1500,
  otherCategories: 100,
} as const;

/** Budgets of issue 14: at 100 000 stored votes (p95), and at 1 000 000 within a factor of that. */
export const SCALE_BUDGETS = {
  flowSeconds: 600,
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
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n');
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const requestRates = (runs: K6Run[]) => runs.map((run) => metricValue(run, 'http_reqs', 'rate'));
const shortUrl = (url: string) => {
  const { pathname } = new URL(url);
  return pathname.length > 60 ? `${pathname.slice(0, 57)}...` : pathname;
};

/** The best sustained step: the highest achieved rate whose p95 stayed under budget. */
export function sustainedVoteRate(steps: StormStep[]): StormStep | undefined {
  return steps.filter((step) => step.sustained).sort((a, b) => b.achievedRate - a.achievedRate)[0];
}

/** The nearest-rank percentile `share` (0..1) of `values`. */
const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(share * values.length) - 1)] ?? Number.NaN;
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
export function renderProofOfWork(results: ProofOfWorkResults): { budgetRows: string[][]; section: string; misses: string[] } {
  const budgetRows: string[][] = [];
  const misses: string[] = [];
  const tables: string[] = [];
  for (const kind of results.kinds) {
    const figures = proofOfWorkFigures(results, kind);
    const name = KIND_NAMES[kind.kind];
    const { phone } = figures;
    const phoneMet = figures.phoneBoundMs <= PROOF_OF_WORK_BUDGETS.phoneWaitMs;
    budgetRows.push([
      `Proof of work, ${name}: the ${OFFICE_VOTERS}th voter of one address waits, on a phone 4x slower than this machine, ${results.workers} workers (longest possible; ${phone.all.length} solves)`,
      `**${seconds(figures.phoneBoundMs)}** (solves: median ${seconds(phone.median)}, p95 ${seconds(phone.p95)}, max ${seconds(phone.max)})`,
      `≤ ${seconds(PROOF_OF_WORK_BUDGETS.phoneWaitMs)}`,
      verdict(phoneMet),
    ]);
    const scriptMet = figures.scriptTotalMs >= PROOF_OF_WORK_BUDGETS.scriptCpuMs;
    budgetRows.push([
      `Proof of work, ${name}: a script's CPU for ${OFFICE_VOTERS} voters from one address, Node's native PBKDF2 (expected; ${figures.scriptSolves} solves)`,
      `**${fixed(figures.scriptTotalMs / 1000, 1)} s**`,
      kind.kind === 'standard' ? `≥ ${fixed(PROOF_OF_WORK_BUDGETS.scriptCpuMs / 1000, 0)} s` : 'none (the creator trusts one network)',
      kind.kind === 'standard' ? verdict(scriptMet) : '',
    ]);
    if (!phoneMet)
      misses.push(`**Proof of work, ${name}, a phone's wait.** The ${OFFICE_VOTERS}th voter's challenge takes ${kind.officeAttempts} attempts
on average and up to twice as many, at ${fixed(figures.phoneMsPerAttempt, 2)} ms an attempt on a phone four times slower
with ${results.workers} workers: up to ${seconds(figures.phoneBoundMs)}.`);
    if (kind.kind === 'standard' && !scriptMet)
      misses.push(`**Proof of work, a script's cost.** ${fixed(figures.scriptTotalMs / 1000, 1)} s of CPU for ${OFFICE_VOTERS} voters
from one address, at ${fixed(figures.cpuMsPerAttempt, 3)} ms of CPU an attempt.`);
    tables.push(`**In ${name}** (the first ${kind.freeVoters} voters of an address vote without a proof): the ${OFFICE_VOTERS}th voter
needs level ${kind.officeLevel}, ${kind.officeAttempts} attempts on average. The page's ${phone.all.length} solves at that level,
times four: ${phone.all.map((value) => fixed(value / 1000, 2)).join(', ')} s (median ${seconds(phone.median)}, p95
${seconds(phone.p95)}, max ${seconds(phone.max)}); ${fixed(figures.phoneMsPerAttempt, 2)} ms an attempt, so a solution drawn at
its highest costs ${seconds(figures.phoneBoundMs)}. A script, ${fixed(figures.cpuMsPerAttempt, 3)} ms of CPU an attempt:

${table(
  ['Level', 'Voters of the first 200', 'Attempts on average', 'Single solves (CPU)', 'Expected CPU per voter'],
  figures.scriptLevels.map((level) => [
    String(level.level),
    String(level.voters),
    String(level.attempts),
    level.solves.map((solve) => ms(solve.cpuMs)).join(', '),
    ms(level.expectedCpuMs),
  ]),
)}

Expected CPU for ${OFFICE_VOTERS} voters from one address: ${fixed(figures.scriptTotalMs / 1000, 1)} s.`);
  }
  const section = `## Proof of work (rising)

Past a household's worth of voters from one network address in a poll, each new voter solves a PBKDF2-SHA-256 challenge
(${results.iterations} iterations an attempt) before the vote counts; every 25 voters a level up, each level's challenge
takes more attempts on average (docs/api/votes-and-notify.md). The solution is drawn uniformly below twice a level's
attempts, so a solver that knows the range cannot skip any of it: a script pays the average, a phone at worst twice it.

**A phone's wait** comes from the voting page itself (Chromium with the mobile profile's viewport and user agent, ${results.workers}
Web Workers): each click on 'Vote' is answered with a challenge of the ${OFFICE_VOTERS}th voter's level, signed by the bench
with the stack's key as the votes service signs, and the page's proof then goes to the service, which counts the vote.
Chromium's CPU throttling (the DevTools protocol) slows the page's own threads, but WebCrypto's PBKDF2 runs on Chromium's
worker pool, which it leaves at full speed: a phone four times slower than this machine takes four times the page's
solve (its \`logovote:proof-of-work\` performance entry). The budget row takes the longest wait possible: the level's
highest solution at the measured time an attempt.

**A script's CPU** is the whole process's (user + system) per single solve, solving as tests/support/proof-of-work.ts does
(altcha-lib's loop with Node's native PBKDF2, OpenSSL); its time an attempt times each voter's expected attempts, summed
over the first ${OFFICE_VOTERS} voters of an address.

${tables.join('\n\n')}
`;
  return { budgetRows, section, misses };
}

const CATEGORY_LABELS: Record<LighthouseCategory, string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};

/** Lighthouse on the four pages, on the empty store and with 100 000 votes stored: budget rows, a section, and why a budget is missed. */
export function renderLighthouse(levels: LighthouseLevel[]): { budgetRows: string[][]; section: string; misses: string[] } {
  const storeName = (level: LighthouseLevel) =>
    level.storedVotes === 0 ? 'empty store' : `${level.storedVotes.toLocaleString('en')} votes`;
  const sizes = levels.map(storeName).join(' / ');
  const pageAt = (level: LighthouseLevel, label: string) => level.pages.find((page) => page.label === label);
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const elementName = (page: LighthouseSummary) => cell(lcpElementName(page).replace(/^(.{60}).+? \(`/, '$1… (`'));

  const budgetRows: string[][] = [];
  for (const label of LIGHTHOUSE_BUDGETS.performancePages) {
    const pages = levels.map((level) => pageAt(level, label));
    const scores = pages.map((page) => page?.scores.performance ?? Number.NaN);
    const lcps = pages.map((page) => page?.metrics.lcpMs ?? Number.NaN);
    budgetRows.push(
      [
        `Lighthouse \`${label}\`: performance score, mobile (median run of ${LIGHTHOUSE_RUNS}), ${sizes}`,
        scores.map((score) => `**${fixed(score)}**`).join(' / '),
        `${LIGHTHOUSE_BUDGETS.performance}`,
        verdict(pages.length > 0 && scores.every((score) => score >= LIGHTHOUSE_BUDGETS.performance)),
      ],
      [
        `Lighthouse \`${label}\`: Largest Contentful Paint, mobile (median run of ${LIGHTHOUSE_RUNS}), ${sizes}`,
        lcps.map((lcp) => `**${seconds(lcp)}**`).join(' / '),
        `≤ ${seconds(LIGHTHOUSE_BUDGETS.lcpMs)}`,
        verdict(pages.length > 0 && lcps.every((lcp) => lcp <= LIGHTHOUSE_BUDGETS.lcpMs)),
      ],
    );
  }
  const measured = levels.flatMap((level) => level.pages.map((page) => ({ level, page })));
  const pageLabels = [...new Set(measured.map(({ page }) => page.label))];
  for (const category of LIGHTHOUSE_CATEGORIES.filter((each) => each !== 'performance')) {
    const lowest = Math.min(...measured.map(({ page }) => page.scores[category]));
    const where = measured
      .filter(({ page }) => page.scores[category] === lowest)
      .map(({ level, page }) => `\`${page.label}\`, ${storeName(level)}`)
      .join('; ');
    budgetRows.push([
      `Lighthouse ${CATEGORY_LABELS[category]} score, lowest of ${pageLabels.map((label) => `\`${label}\``).join(', ')} (${sizes})`,
      `**${fixed(lowest)}**${lowest < LIGHTHOUSE_BUDGETS.otherCategories ? ` (${where})` : ''}`,
      `${LIGHTHOUSE_BUDGETS.otherCategories}`,
      verdict(measured.length > 0 && lowest >= LIGHTHOUSE_BUDGETS.otherCategories),
    ]);
  }

  const rows = measured.map(({ level, page }) => [
    `\`${page.label}\``,
    storeName(level),
    `**${fixed(page.scores.performance)}** (${page.runs.map((run) => fixed(run.performance)).join(', ')})`,
    seconds(page.metrics.lcpMs),
    seconds(page.metrics.fcpMs),
    ms(page.metrics.tbtMs),
    fixed(page.metrics.cls, 3),
    fixed(page.scores.accessibility),
    fixed(page.scores['best-practices']),
    fixed(page.scores.seo),
    elementName(page),
  ]);
  const notPassed = measured.flatMap(({ level, page }) => {
    const audits = LIGHTHOUSE_CATEGORIES.flatMap((category) =>
      page.failing[category].map((audit) => `${CATEGORY_LABELS[category]} \`${audit.id}\` ${fixed(audit.score, 2)}`),
    );
    return audits.length > 0 ? [`- \`${page.label}\`, ${storeName(level)}: ${audits.join(', ')}`] : [];
  });
  const lcpParts = measured.map(({ level, page }) => {
    const parts = Object.entries(page.lcp.partsMs).map(([part, value]) => `${part} ${ms(value)}`);
    return `- \`${page.label}\`, ${storeName(level)}: ${parts.length > 0 ? parts.join(', ') : 'not given'}`;
  });
  const benchmarkIndexes = (level: LighthouseLevel) => {
    const indexes = level.pages.map((page) => page.benchmarkIndex);
    return `${fixed(Math.min(...indexes))} to ${fixed(Math.max(...indexes))}`;
  };
  const settling = (level: LighthouseLevel) =>
    `${Math.round(level.busyShare * 100)} % of the CPU busy after ${level.settleSeconds} s of settling`;
  const first = measured[0]?.page;
  const chromium = /Chrome\/([\d.]+)/.exec(first?.browserVersion ?? '')?.[1] ?? 'unknown';
  const warnings = [...new Set(measured.flatMap(({ page }) => page.warnings))];
  const failedRuns = measured
    .filter(({ page }) => page.failedRuns.length > 0)
    .map(({ level, page }) => `\`${page.label}\` (${storeName(level)}): ${page.failedRuns.join(', ')}`);
  const section = `## Lighthouse

Lighthouse ${first?.lighthouseVersion ?? 'n/a'} (\`bench/lib/lighthouse.ts\`, \`npm run lighthouse\` for one stack) with its default
configuration: a mobile device, simulated throttling (150 ms RTT, 1.6 Mbps, 4x CPU slowdown), on Debian's Chromium ${chromium},
headless, one Chromium at a time, with chrome-launcher's default flags and the address bar's suggestion popup switched off
(Chromium 156 keeps it as a hidden page of its own, which runs script at every navigation on the same two cores as the
measured page; a phone's browser does not). Each row is the median of ${LIGHTHOUSE_RUNS} runs by Lighthouse's \`computeMedianRun\` (the run nearest the
median FCP and time to interactive; the performance score of every run in brackets). Before each set of runs the bench waits,
up to two minutes, for a second with under 15 % of the machine's CPU busy, since Lighthouse scales the page's real task
times by its 4x CPU slowdown and would count other work's as the page's. The measured poll is the scale
section's first: ${levels
    .map(
      (level) =>
        `with ${level.storedVotes === 0 ? 'the store empty' : `${level.storedVotes.toLocaleString('en')} votes stored`} it held ${level.pollVotes} votes (${settling(level)}, load ${load(level.load)}, Lighthouse's BenchmarkIndex of the machine ${benchmarkIndexes(level)})`,
    )
    .join('; ')}. \`/admin/polls\` is loaded with the admin's Basic credentials.

${table(['Page', 'Data', 'Performance', 'LCP', 'FCP', 'TBT', 'CLS', 'Accessibility', 'Best practices', 'SEO', 'LCP element'], rows)}

Lighthouse loads the page unthrottled and simulates the mobile network and CPU from what it recorded (150 ms round
trips at 1.6 Mbps), while the Fast 3G figure above throttles a real load (${MOBILE_PROFILE.latencyMs} ms added to every request);
both slow the CPU 4x, so the two LCPs differ by method. The LCP element comes from the \`lcp-breakdown-insight\` audit
(Lighthouse 13 replaced \`largest-contentful-paint-element\` by it), which also splits the unthrottled load's LCP into its parts:

${lcpParts.join('\n')}

Scored audits not fully passed in the median runs (score 0 to 1):

${notPassed.length > 0 ? notPassed.join('\n') : 'none.'}
${failedRuns.length > 0 ? `\nRuns Lighthouse could not complete, each run again: ${failedRuns.join('; ')}.\n` : ''}${warnings.length > 0 ? `\nLighthouse's warnings: ${warnings.map((warning) => cell(warning)).join(' ')}\n` : ''}`;

  const misses: string[] = [];
  const slowPages = LIGHTHOUSE_BUDGETS.performancePages.flatMap((label) =>
    levels.flatMap((level) => {
      const page = pageAt(level, label);
      return page && (page.scores.performance < LIGHTHOUSE_BUDGETS.performance || page.metrics.lcpMs > LIGHTHOUSE_BUDGETS.lcpMs)
        ? [{ level, page }]
        : [];
    }),
  );
  const slow = slowPages.map(({ level, page }) => {
    const lost = page.failing.performance.map((audit) => `\`${audit.id}\` ${fixed(audit.score, 2)}`);
    return `\`${page.label}\` (${storeName(level)}): ${fixed(page.scores.performance)}, LCP ${seconds(page.metrics.lcpMs)} (${elementName(page)}), TBT ${ms(page.metrics.tbtMs)}${lost.length > 0 ? `, points lost to ${lost.join(', ')}` : ''}`;
  });
  const onlyBlockingTime = slowPages.every(({ page }) => page.failing.performance.every((audit) => audit.id === 'total-blocking-time'));
  if (slow.length > 0) {
    misses.push(`**Lighthouse, performance.** Under ${LIGHTHOUSE_BUDGETS.performance} or an LCP over ${seconds(LIGHTHOUSE_BUDGETS.lcpMs)}: ${slow.join('; ')}.
${
  onlyBlockingTime
    ? `Only Total Blocking Time cost points. Its largest and most variable part is Chromium's navigation commit, outside
the page's code, which Lighthouse's simulation ends after its first paint (see "Measuring on a quiet machine" under
"What was changed to meet the budgets"). `
    : ''
}The audits that cost points and the LCP's parts are in "Lighthouse" below.`);
  }
  const short = measured.filter(({ page }) =>
    LIGHTHOUSE_CATEGORIES.some((category) => category !== 'performance' && page.scores[category] < LIGHTHOUSE_BUDGETS.otherCategories),
  );
  if (short.length > 0) {
    misses.push(
      `**Lighthouse, accessibility, best practices and SEO.** Under ${LIGHTHOUSE_BUDGETS.otherCategories} on ${short
        .map(({ level, page }) => `\`${page.label}\` (${storeName(level)})`)
        .join(', ')}: the failing audits are listed in "Lighthouse" below.`,
    );
  }
  return { budgetRows, section, misses };
}

/** The scale section: real voter flows to 100 000 votes, and the hot paths at 0, 100 000 and 1 000 000. */
function renderScale(scale: ScaleResults): { budgetRows: string[][]; section: string } {
  const [, hundredThousand, million] = scale.probes;
  const flowRate = scale.flows.voters / scale.flows.seconds;
  const flowsMet = scale.flows.seconds <= SCALE_BUDGETS.flowSeconds && scale.flows.failedRequests === 0 && scale.exact.mismatches === 0;
  const budgetRows: string[][] = [
    [
      `${scale.flows.voters} voters through the gateway (session, my-vote, vote), 0 failed requests, exact counts`,
      `**${fixed(scale.flows.seconds)} s**, ${fixed(flowRate)} voters/s; ${scale.flows.failedRequests} failed; ${scale.exact.mismatches} logos differ`,
      `≤ ${SCALE_BUDGETS.flowSeconds} s`,
      verdict(flowsMet),
    ],
  ];
  for (const name of PROBED) {
    const budget = SCALE_BUDGETS.p95AtHundredThousandMs[name];
    const at100k = hundredThousand ? probeMs(hundredThousand, name, 'p(95)') : Number.NaN;
    const at1m = million ? probeMs(million, name, 'p(95)') : Number.NaN;
    if (Number.isFinite(budget)) {
      budgetRows.push([`${PROBE_LABELS[name]} p95 at 100 000 votes`, `**${ms(at100k)}**`, `≤ ${budget} ms`, verdict(at100k <= budget)]);
    }
    budgetRows.push([
      `${PROBE_LABELS[name]} p95 at 1 000 000 votes ÷ at 100 000`,
      `${ms(at1m)} ÷ ${ms(at100k)} = **${fixed(at1m / at100k, 2)}**`,
      `≤ ${SCALE_BUDGETS.factorAtMillion}`,
      verdict(at1m / at100k <= SCALE_BUDGETS.factorAtMillion),
    ]);
  }
  const probeRows = PROBED.map((name) => [
    PROBE_LABELS[name],
    ...scale.probes.map((probe) => `${ms(probeMs(probe, name, 'med'))} / ${ms(probeMs(probe, name, 'p(95)'))}`),
  ]);
  const flowCpuRows = [...scale.flows.cpu]
    .sort((a, b) => b.seconds - a.seconds)
    .map(({ name, seconds: cpu }) => [name, `${fixed(cpu)} s`, `${fixed((cpu * 1000) / scale.flows.voters, 1)} ms`]);
  const stackCpu = scale.flows.cpu.reduce((sum, { seconds: cpu }) => sum + cpu, 0);
  const restCpu = scale.flows.machineCpuSeconds - stackCpu;
  flowCpuRows.push([
    'the rest of the machine (k6 running the voters, the bench)',
    `${fixed(restCpu)} s`,
    `${fixed((restCpu * 1000) / scale.flows.voters, 1)} ms`,
  ]);
  const cpuPerVoterMs = (scale.flows.machineCpuSeconds * 1000) / scale.flows.voters;
  const coreCount = cpus().length;
  const section = `## Scale: 100 000 votes and a million

\`bench/k6/scale-voters.js\` runs real voter flows through the gateway, each a new visitor (no cookies, a fingerprint of its
own) loading the session, asking for its vote and voting, in ${scale.flows.runs.length} batches of ${FLOW_VUS} addresses (one request
at a time each) with at most 5 voters per address per poll, over ${SCALE_POLLS} polls: **${scale.flows.voters} voters in ${fixed(scale.flows.seconds)} s,
${fixed(flowRate)} voters/s**, ${scale.flows.failedRequests} failed requests (load ${load(scale.flows.load)} at the end). Counted
through \`GET /api/sessions/{id}\`: ${scale.exact.counted} votes against ${scale.exact.expected} cast, ${scale.exact.mismatches} logos differ.

Where the CPU went during the flows (${fixed(scale.flows.machineCpuSeconds)} s busy of ${fixed(coreCount * scale.flows.seconds)} s on ${coreCount} cores):

${table(['Process', 'CPU', 'per voter'], flowCpuRows)}

A voter costs ${fixed(cpuPerVoterMs, 1)} ms of CPU in all, so ${coreCount} cores carry at most ${fixed((coreCount * 1000) / cpuPerVoterMs)} voters/s here
whatever the data size; 100 000 voters in 10 minutes needs 167/s.

Then ${scale.bulk.votes} more votes were written in ${fixed(scale.bulk.seconds)} s by the product's own data-access code
(\`insertFirstVotes\` with \`folded\`: the votes, their ledger revisions and one tally step per ${BULK_BATCH} votes of a poll, as the
folder would leave them). Before each probe the bench waits (up to a minute) for the votes service's folder to
finish the votes just cast: ${scale.pendingAtProbe.join(' and ')} entries were still pending when the probes at 100 000 and
1 000 000 began.

\`bench/k6/scale-probe.js\` times each hot path one request at a time (${'100'} visitors per level), p50 / p95:

${table(
  ['Request', ...scale.probes.map((probe) => `${probe.storedVotes.toLocaleString('en')} votes stored (load ${probe.load[0]!.toFixed(2)})`)],
  probeRows,
)}

### The design, and its limits

- **Counts are kept, not recounted.** Each vote (or change) is an insert-only ledger revision under a unique key; the
  votes service folds a poll's pending revisions into insert-only tally steps. A session view reads the newest steps
  and the poll's pending revisions: a bounded amount, exact under any concurrency, with no \`$inc\` and no
  read-modify-write that matters (FerretDB loses concurrent updates). Details: [vote-counts.md](vote-counts.md).
- **Indexes FerretDB can use.** The embedded PostgreSQL cluster gives each FerretDB index a GIN \`jsonb_path_ops\`
  companion, so FerretDB's equality filters (\`_jsonb->'field' @> value\`) are index lookups; on MongoDB the same
  MongoDB indexes serve them.
- **The admin list by numbered pages.** Polls take list numbers in pages of 20, so a page is one equality query and the
  poll count is an exact tally: no sort, range or count over all polls (FerretDB applies those in Go after reading
  every row).
- **Limits.** Between folds a poll's pending revisions are read on every view: a poll taking votes faster than the
  folder folds them reads more per view until it catches up (the folder runs every second, four polls at a time).
  Throughput is bounded by CPU per voter (above), not by the data size. FerretDB still applies sorts, ranges and
  \`$in\` in Go, so any new query must be an equality lookup to stay flat.
`;
  return { budgetRows, section };
}

/** The live results' budgets of issue 17: every open page updated within a second, at a cost per vote independent of viewers. */
export const LIVE_BUDGETS = { deliveryP95Ms: 1000, viewers: 1000 } as const;

/** Live results (docs/live-results.md): delivery to 1 000 open streams, what they hold, what a vote costs. */
export function renderLive(live: LiveResults): { budgetRows: string[][]; section: string } {
  const delivered = live.deliveries.received === live.deliveries.expected;
  // Independent of viewers: within the noise of the background work's reads (a tenth, or two reads a vote).
  const independent = live.readsPerVote.allViewers <= Math.max(live.readsPerVote.oneViewer * 1.1, live.readsPerVote.oneViewer + 2);
  const budgetRows: string[][] = [
    [
      `Live results: a vote's counts on each of ${live.viewers} open streams through the gateway, p95`,
      `**${ms(live.deliveryMs.p95)}** (p50 ${ms(live.deliveryMs.p50)}); ${live.deliveries.received} of ${live.deliveries.expected} delivered`,
      `≤ ${ms(LIVE_BUDGETS.deliveryP95Ms)}, ${LIVE_BUDGETS.viewers} streams`,
      verdict(live.deliveryMs.p95 <= LIVE_BUDGETS.deliveryP95Ms && delivered && live.viewers >= LIVE_BUDGETS.viewers),
    ],
    [
      `Live results: database reads per vote with ${live.viewers} viewers ÷ with 1`,
      `**${fixed(live.readsPerVote.allViewers, 1)} ÷ ${fixed(live.readsPerVote.oneViewer, 1)}**`,
      'independent of viewers',
      verdict(independent),
    ],
  ];
  const rows = (['gateway', 'sessions'] as const).map((name) => {
    const { before, withStreams } = live.footprint[name];
    return [
      name === 'gateway' ? 'Gateway (nginx, all processes)' : 'Sessions service',
      `${mb(before.residentBytes)}, ${fixed(before.openFiles)} files`,
      `${mb(withStreams.residentBytes)}, ${fixed(withStreams.openFiles)} files`,
      `${kb((withStreams.residentBytes - before.residentBytes) / live.viewers)}`,
    ];
  });
  const section = `## Live results

${live.viewers} event streams of one poll's results held open through the gateway (Node clients from ${live.addresses}
loopback addresses, ${Math.ceil(live.viewers / live.addresses)} each, under the gateway's per-address cap), opened in
${fixed(live.openSeconds, 1)} s; then ${live.votes} votes through the gateway, one every 1.5 s or so, each from an address
of its own. Delivery is the time from sending a vote to its counts arriving on a stream, over every vote and stream:
p50 ${ms(live.deliveryMs.p50)}, p95 ${ms(live.deliveryMs.p95)}, max ${ms(live.deliveryMs.max)} (${live.deliveries.received} of
${live.deliveries.expected} events), of which the vote's own request took p50 ${ms(live.voteMs.p50)}, max ${ms(live.voteMs.max)}; the
machine's load average was ${fixed(live.load[0], 2)} then ${fixed(live.load[1], 2)}. Reference: within a second, whatever the number of viewers.

${table(['Process', 'Before the streams', `With ${live.viewers} streams`, 'Per stream'], rows)}

Database reads are PostgreSQL's table scans (sequential and index) over 15 s windows: one with ${live.votesPerWindow} votes, less the
mean of one without votes before it and one after:
per vote ${fixed(live.readsPerVote.oneViewer, 1)} with one viewer, ${fixed(live.readsPerVote.allViewers, 1)} with
${live.viewers}; without votes, ${fixed(live.idleReadsPerSecond.oneViewer, 1)} and ${fixed(live.idleReadsPerSecond.allViewers, 1)}
a second (every service's background work, the live loop's two signal reads per tick included). Design and limits:
[live-results.md](live-results.md).
`;
  return { budgetRows, section };
}

/** The vote storm's, the counts' and poll creation's figures, budget rows and step table (also `LOGOVOTE_BENCH_ONLY=storm`'s output). */
export function renderStorm({ raw, storm, exact, creation }: Pick<BenchResults, 'raw' | 'storm' | 'exact' | 'creation'>) {
  const sustainedRate = sustainedVoteRate(storm.steps)?.achievedRate ?? 0;
  // The storm ran between the two raw measurements: its reference is their mean.
  const rawRate = (raw.before.perSecond + raw.after.perSecond) / 2;
  const voteShare = sustainedRate / rawRate;
  const create = (metric: string, stat: string) => metricValue(creation.run, metric, stat);
  const createP50 = create('http_req_duration{name:create}', 'med');
  const checksP50 = create('create_checks', 'med');
  const createP95 = create('http_req_duration{name:create}', 'p(95)');
  const met = {
    votes: voteShare >= BUDGETS.voteShareOfRaw,
    creation: createP95 <= BUDGETS.creationP95Ms,
    counts: exact.mismatches === 0 && exact.uncertain === 0 && exact.votes === exact.expectedVotes,
  };
  const rows = {
    votes: [
      'Votes/s through the gateway with p95 < 100 ms, ÷ raw upsert rate',
      `${fixed(sustainedRate)} ÷ ${fixed(rawRate)} = **${fixed(voteShare, 2)}**`,
      `≥ ${BUDGETS.voteShareOfRaw}`,
      verdict(met.votes),
    ],
    creation: [
      `Poll creation with four logos of ${mb(Math.max(...creation.sizes))}, every moderation check included, p95`,
      `**${ms(createP95)}** (p50 ${ms(createP50)}; the checks p50 ${ms(checksP50)})`,
      `≤ ${seconds(BUDGETS.creationP95Ms)}`,
      verdict(met.creation),
    ],
    counts: [
      'Counts exact after the storm',
      `${exact.votes} counted, ${exact.expectedVotes} acknowledged; ${exact.mismatches} logos differ; ${exact.uncertain} votes unanswered`,
      'exact',
      verdict(met.counts),
    ],
  };
  const stepTable = table(
    ['Target votes/s', 'Achieved votes/s', 'p50', 'p95', 'Failed', 'Dropped', 'Sustained'],
    storm.steps.map((step) => [
      `${step.targetRate}`,
      fixed(step.achievedRate, 1),
      ms(step.p50Ms),
      ms(step.p95Ms),
      `${fixed(step.failedRate * 100, 2)} %`,
      fixed(step.dropped),
      step.sustained ? 'yes' : 'no',
    ]),
  );
  const section = `Raw upserts: ${fixed(raw.before.perSecond)}/s before the storm (${raw.before.collectionSize} votes stored), ${fixed(raw.after.perSecond)}/s after it (${raw.after.collectionSize}).\n\n${stepTable}\n`;
  return {
    budgetRows: [rows.votes, rows.creation, rows.counts],
    rows,
    section,
    stepTable,
    met,
    figures: { sustainedRate, rawRate, voteShare, createP50, checksP50, createP95 },
  };
}

export function renderReport(results: BenchResults): string {
  const { machine, raw, storm, exact, readCosts, logos, creation, page, memory } = results;
  const stormFigures = renderStorm(results);
  const { sustainedRate, rawRate, voteShare, createP50, checksP50, createP95 } = stormFigures.figures;
  const create = (metric: string, stat: string) => metricValue(creation.run, metric, stat);
  const scale = renderScale(results.scale);
  const proofOfWork = renderProofOfWork(results.proofOfWork);
  const lighthouse = renderLighthouse(results.lighthouse);
  const live = renderLive(results.live);
  const gatewayRps = median(requestRates(logos.gateway));
  const staticRps = median(requestRates(logos.nginxStatic));
  const logoShare = gatewayRps / staticRps;
  const firstLoad = page.loads[0]!;
  const jsBytes = firstLoad.jsBeforeFirstLogo.bodyBytes;
  const met = {
    ...stormFigures.met,
    logos: logoShare >= BUDGETS.logoShareOfStatic,
    js: jsBytes <= BUDGETS.firstLoadJsBytes,
    lcp: page.medianLcpMs <= BUDGETS.lcpMs,
  };

  const budgetRows = [
    stormFigures.rows.votes,
    [
      'Logo requests/s through the gateway ÷ nginx static',
      `${fixed(gatewayRps)} ÷ ${fixed(staticRps)} = **${fixed(logoShare, 2)}**`,
      `≥ ${BUDGETS.logoShareOfStatic}`,
      verdict(met.logos),
    ],
    [
      'Voting page: JavaScript before the first logo, compressed',
      `**${kb(jsBytes)}** (${jsBytes} bytes in ${firstLoad.jsBeforeFirstLogo.files} files; ${kb(firstLoad.jsBeforeFirstLogo.transferBytes)} with headers)`,
      `≤ ${kb(BUDGETS.firstLoadJsBytes)}`,
      verdict(met.js),
    ],
    [
      `Voting page: Largest Contentful Paint, mobile profile (median of ${page.loads.length})`,
      `**${seconds(page.medianLcpMs)}** (${page.loads.map((each) => seconds(each.lcpMs)).join(', ')})`,
      `≤ ${seconds(BUDGETS.lcpMs)}`,
      verdict(met.lcp),
    ],
    stormFigures.rows.creation,
    ...lighthouse.budgetRows,
    ...scale.budgetRows,
    ...proofOfWork.budgetRows,
    ...live.budgetRows,
    stormFigures.rows.counts,
  ];

  const trafficRows = ['session', 'logo', 'my_vote', 'vote', 'results'].map((name) => {
    const metric = `http_req_duration{name:${name}}`;
    return [
      name,
      ms(metricValue(results.traffic, metric, 'med')),
      ms(metricValue(results.traffic, metric, 'p(95)')),
      ms(metricValue(results.traffic, metric, 'max')),
    ];
  });

  const logoRows = (
    [
      ['gateway `/api/logos/…`', logos.gateway],
      ['nginx static file', logos.nginxStatic],
    ] as const
  ).map(([name, runs]) => [
    name,
    `**${fixed(median(requestRates(runs)))}** (${requestRates(runs)
      .map((rate) => fixed(rate))
      .join(', ')})`,
    ms(median(runs.map((run) => metricValue(run, 'http_req_duration', 'med')))),
    ms(median(runs.map((run) => metricValue(run, 'http_req_duration', 'p(95)')))),
    `${fixed(Math.max(...runs.map((run) => metricValue(run, 'http_req_failed', 'rate'))) * 100, 2)} %`,
  ]);

  const memoryRows = Object.keys(memory.atRest).map((name) => [
    name,
    mb(memory.atRest[name]!),
    mb(memory.underStorm[name]?.mean ?? Number.NaN),
    mb(memory.underStorm[name]?.peak ?? Number.NaN),
  ]);

  const waterfallRows = firstLoad.resources
    .filter((resource) => resource.startMs <= firstLoad.firstLogoMs)
    .map((resource) => [shortUrl(resource.url), resource.type, fixed(resource.startMs), fixed(resource.endMs), kb(resource.bodyBytes)]);
  const scriptRows = firstLoad.resources
    .filter((resource) => resource.type === 'Script' && resource.endMs <= firstLoad.firstLogoMs)
    .map((resource) => [shortUrl(resource.url), kb(resource.bodyBytes), resource.contentEncoding || 'none']);
  const jsTransferMs = (jsBytes * 8) / MOBILE_PROFILE.downloadKbps;
  const firstLogoRequest = firstLoad.resources.find((resource) => resource.endMs === firstLoad.firstLogoMs);
  const sequentialRequests = 6;
  const networkFloorMs = sequentialRequests * MOBILE_PROFILE.latencyMs + jsTransferMs;

  // A storm step above what the stack sustains crosses its thresholds by design: only the others are listed.
  const crossed = [results.traffic, ...logos.gateway, ...logos.nginxStatic, creation.run].flatMap((run) =>
    run.crossed.map((threshold) => `- \`${run.script}\`: \`${threshold}\``),
  );

  const misses: string[] = [];
  const scaleMissed = scale.budgetRows.filter((row) => row[3] === verdict(false)).map((row) => row[0]);
  if (scaleMissed.length > 0) {
    misses.push(
      `**Scale.** Missed: ${scaleMissed.join('; ')}. The figures per level are in "Scale" below; vote-counts.md says what each path reads.`,
    );
  }
  if (!met.votes) {
    misses.push(`**Votes.** ${fixed(sustainedRate)} votes/s held p95 under ${P95_BUDGET_MS} ms, ${fixed(voteShare, 2)} of the ${fixed(rawRate)}
upserts/s the database itself took (${fixed(raw.before.perSecond)} before the storm and ${fixed(raw.after.perSecond)} after it, with ${raw.before.collectionSize} and ${raw.after.collectionSize}
votes stored). The raw upsert is one driver-level write; a vote through the gateway is an HTTP request through nginx, the
anti-forgery and fingerprint checks and seven to eight database round trips (see "Votes"), on the same two cores as
k6 and the database. CPU per vote is the limit, not the data size: "Scale" measures it per voter, and the hot paths stay
flat from 100 000 to 1 000 000 stored votes. Machine load ${fixed(machine.loadDuring.max, 1)} (1 min, max).`);
  }
  if (!met.logos) {
    misses.push(`**Logo images.** ${fixed(gatewayRps)} requests/s against ${fixed(staticRps)} for nginx alone (${fixed(logoShare, 2)}). Both are the
same nginx and the gateway answers from its cache, so the difference is the cache lookup and the proxy's header
handling, and the rounds' spread (see the table) shows how much the shared machine moved the figures.`);
  }
  if (!met.js) {
    misses.push(`**JavaScript.** ${kb(jsBytes)} arrived before the first logo (list below); React DOM alone is
${kb(firstLoad.resources.filter((resource) => resource.type === 'Script').reduce((max, resource) => Math.max(max, resource.bodyBytes), 0))}.`);
  }
  if (!met.lcp) {
    misses.push(`**Largest Contentful Paint.** ${seconds(page.medianLcpMs)} under the mobile profile; the LCP element is a logo image${
      firstLogoRequest ? `, requested at ${seconds(firstLogoRequest.startMs)}` : ''
    }. This profile adds ${MOBILE_PROFILE.latencyMs} ms to every request, and
the page is client-rendered from micro-frontends: before a logo can be requested, six requests must follow one
another, each waiting for the one before (the waterfall below): the HTML; the shell's entry script; the voting
remote's \`mf-manifest.json\` (its address comes from \`/runtime-config.json\`); its \`remoteEntry.js\` and screen chunk;
the session and the visitor's vote status (\`my-vote\`, which needs the browser fingerprint first: the voting screen
shows the logos once both have answered); then the image. Six latencies and the ${kb(jsBytes)} of JavaScript at
${MOBILE_PROFILE.downloadKbps} kbit/s already make ${seconds(networkFloorMs)} before any CPU time or server time, so 2.0 s cannot be
reached under this profile by trimming bytes. The same page with the CPU slowdown alone took ${seconds(page.cpuOnly.lcpMs)}: the
network profile accounts for the difference. Meeting 2.0 s here needs the logos in the first HTML (server-side
rendering of the voting page, or at least \`<link rel="preload">\` of its images and data sent with the page), which
the micro-frontend architecture does not do today.`);
  }
  if (!met.creation) {
    misses.push(`**Poll creation.** p95 ${ms(createP95)} for four logos; the checks (type, decoding and every moderation
check, docs/moderation.md) took p50 ${ms(checksP50)} of the p50 ${ms(createP50)}.`);
  }
  if (!met.counts) {
    misses.push(`**Counts.** ${exact.mismatches} logo counts differ from the votes k6 saw acknowledged (${exact.votes} counted,
${exact.expectedVotes} expected, ${exact.uncertain} votes without an answer, whose outcome is unknown).`);
  }
  misses.push(...lighthouse.misses);
  misses.push(...proofOfWork.misses);

  return `# LogoVote performance

Written by \`${results.command}\` on ${results.date.slice(0, 10)}: ${fixed(results.durationSeconds)} s in all${
    results.buildSeconds > 1 ? `, ${fixed(results.buildSeconds)} s of it the build` : ' (build skipped)'
  }. Every figure comes from that one run: the stack on its embedded servers (FerretDB on PostgreSQL, MinIO, MailDev) with fresh
data, every request through the gateway, each figure measured side by side with its reference. The file is
rewritten by each run; the k6 scripts are in \`bench/k6\`, the orchestration in \`bench/bench.ts\`.

## Machine

| | |
| --- | --- |
| CPU | ${machine.cpu} |
| Memory | ${fixed(machine.memoryGiB, 1)} GiB |
| Kernel | ${machine.kernel} |
| Node.js | ${machine.node} |
| Tools | ${machine.k6}; ${machine.nginx}; FerretDB ${machine.ferretdb} on PostgreSQL 15 |
| Load average (1/5/15 min) | at start ${load(machine.loadAtStart)}; during the run mean ${fixed(machine.loadDuring.mean, 2)}, max ${fixed(machine.loadDuring.max, 2)} (1 min); at the end ${load(machine.loadAtEnd)} |

The machine is shared with other work: a load average above its two cores means something else competed with
the measurement.

## Budgets

${table(['Figure', 'Measured', 'Budget', ''], budgetRows)}

${misses.length > 0 ? `### Why a budget is missed\n\n${misses.join('\n\n')}\n` : 'Every budget is met.\n'}
${
  crossed.length > 0
    ? `k6 thresholds crossed in this run (the storm's steps above the sustained rate are not listed: they cross theirs by design):\n\n${crossed.join('\n')}\n`
    : 'Every k6 threshold held (the storm steps above the sustained rate cross theirs by design).\n'
}
## Conditions

- The gateway's per-address API rate limit is raised for the bench (${Object.entries(results.rateLimits)
    .map(([name, value]) => `\`${name}=${value}\``)
    .join(', ')}; production defaults \`50r/s\` and \`200\`): the logo comparison fetches thousands of
  images a second from one address. The limit itself is measured by \`bench/k6/rate-limit-burst.js\`.
- The votes service keeps its production per-address cap (\`VOTES_PER_IP_PER_POLL\` = 50): each k6 virtual
  user sends from a loopback address of its own (\`k6 --local-ips\`, 127.10.0.1 onwards, new addresses for each
  step) and brings at most five voters to each poll, as households would.
- Services log at \`info\` (the production default), \`NODE_ENV=production\`, FerretDB pool
  \`maxPoolSize=${raw.before.concurrency}\` as \`npm start\` uses it.
- k6 and Chromium run on the same two cores as the stack, so every figure includes their load.

${scale.section}
## Votes

**Raw upsert rate** (the physical limit of a vote): driver-level \`updateOne(..., { upsert: true })\` of vote
documents into the stack's own votes collection (same \`_id\`, fields and indexes as the service's, under a poll id
of their own, a quarter of them changing an earlier vote), ${raw.before.concurrency} at a time for 10 s, just before the
storm and just after it. The storm's reference is their mean, **${fixed(rawRate)} upserts/s**.

${table(
  ['When', 'Votes stored', 'Upserts/s', 'p50', 'p95'],
  (
    [
      ['before the storm', raw.before],
      ['after the storm', raw.after],
    ] as const
  ).map(([when, measured]) => [when, `${measured.collectionSize}`, fixed(measured.perSecond), ms(measured.p50Ms), ms(measured.p95Ms)]),
)}

**Vote storm** (\`bench/k6/vote-storm.js\`): votes arrive at a constant rate for ${storm.stepSeconds} s per step, the rate
rising from step to step as a share of the raw rate before the storm (one k6 run each after a short warm-up, stopped
after two steps in a row are not sustained); ${storm.vus} addresses per step, each bringing at most five voters to each
of ${exact.polls} polls, some of them changing their vote. Every vote is waited for, so the expected counts are exact. A
step is sustained when its p95 is under ${P95_BUDGET_MS} ms, under 1 % failed and under 1 % of arrivals were dropped
for want of a free virtual user.

${stormFigures.stepTable}

Sustained: **${fixed(sustainedRate, 1)} votes/s**, ${fixed(voteShare, 2)} of the raw upsert rate. A first vote costs the votes
service six database round trips (the poll; the voter's row
and next ledger revision, both absent; the ledger insert; the seat; the voter cookie's binding) and a changed vote
eight (the poll, the voter cookie's binding, the row, the next revision, the ledger insert, then the row brought up
to date: read, revision lookup, update); the raw upsert is one, in which FerretDB looks the document up
and writes it.

**Counts after the storm**: ${exact.votes} votes counted through \`GET /api/sessions/{id}\` against ${exact.expectedVotes}
acknowledged, checked logo by logo (${exact.mismatches} differ; ${exact.uncertain} votes got no answer).

**What the database's reads cost** after the storm, with ${readCosts.votes} vote documents stored (median of five,
with the driver):

${table(
  ['Query', 'Made by', 'Time'],
  [
    ['a vote by its key (`_id`)', 'a changed vote, every my-vote', ms(readCosts.findByIdMs)],
    ['the seats of an address (`pollId`, `ipHash`)', 'a first vote whose random seat was taken', ms(readCosts.seatsMs)],
    ['the counts per logo of a poll (`pollId`, by `logoId`)', 'every session view (voting and results pages)', ms(readCosts.countsMs)],
  ],
)}

FerretDB 1.24 sends equality filters to PostgreSQL as \`_jsonb->'field' @> value\`; the GIN companions of its
indexes (docs/vote-counts.md) let PostgreSQL answer them from an index, and the counts read a poll's tally steps and
pending ledger entries, not its votes. On MongoDB, which production runs, each of these queries is an index lookup.

## Mixed voter traffic

\`bench/k6/voter-traffic.js\`: ${fixed(metricValue(results.traffic, 'iterations', 'count'))} new visitors, 10 a second, each loading the session,
its four logos, its vote status, voting and reading the results (${fixed(metricValue(results.traffic, 'http_reqs', 'rate'))} requests/s in all).

${table(['Request', 'p50', 'p95', 'max'], trafficRows)}

A session view reads the poll, its newest tally steps and its pending ledger entries (vote-counts.md), whatever the
number of votes stored. Concurrent views
of one poll share one count (the next one to start after they arrived, so each still includes every vote
acknowledged before it), which keeps a busy poll from queueing one count per visitor.

## Logo images

\`bench/k6/logo-serving.js\`: ${logos.clients} clients fetching a poll's ${logos.sizes.length} logos (${logos.sizes
    .map((size) => kb(size))
    .join(', ')}) back to back, in ${logos.gateway.length} alternating rounds of ${logos.roundSeconds} s against each
server (medians, each round in brackets); every answer checked for status 200 and its full length. The reference is
the same nginx build with the same single worker serving the same bytes from disk with \`sendfile\`.

${table(['Served by', 'Requests/s', 'p50', 'p95', 'Failed'], logoRows)}

Ratio: **${fixed(logoShare, 2)}**. The gateway keeps each image for one second (\`proxy_cache\`, revalidated with the
media service's ETag), so a busy poll's logos are read from the object store about once a second whatever the
traffic, while a deleted poll's images stop being served within a second; HEAD (the admin page's broken-image check)
always reaches the media service.

## Poll creation

\`bench/k6/create-poll.js\`: ${fixed(metricValue(creation.run, 'iterations', 'count'))} creations one after another (after one unmeasured), each with four
PNG logos of ${creation.sizes.map((size) => mb(size)).join(', ')}: real images just under the 2 MiB upload limit.

${table(
  ['', 'p50', 'p95'],
  [
    [
      `Whole request (${mb(creation.sizes.reduce((sum, size) => sum + size, 0))} uploaded)`,
      ms(createP50),
      ms(create('http_req_duration{name:create}', 'p(95)')),
    ],
    ['Checks: type, full decode and content moderation (`Server-Timing: checks`)', ms(checksP50), ms(create('create_checks', 'p(95)'))],
    [
      'Storing: poll record and four objects (`Server-Timing: store`)',
      ms(create('create_store', 'med')),
      ms(create('create_store', 'p(95)')),
    ],
  ],
)}

Moderation, with the decoding it needs, is **${fixed((checksP50 / createP50) * 100)} %** of a creation (p50); the rest is the upload itself
and storing.

## Voting page first load

Headless Chromium, cold cache, ${MOBILE_PROFILE.name}. LCP from a
\`PerformanceObserver\` for \`largest-contentful-paint\`; bytes from the DevTools protocol (\`Network.loadingFinished\`
\`encodedDataLength\` less the response headers). Chromium accepted \`${firstLoad.acceptEncoding}\`.

- JavaScript before the first logo arrived: **${kb(jsBytes)}** compressed, ${firstLoad.jsBeforeFirstLogo.files} files.
- LCP: ${page.loads.map((each) => `${seconds(each.lcpMs)} (${each.lcpElement})`).join('; ')}.
- First logo loaded at ${seconds(firstLoad.firstLogoMs)}.
- The same page with the 4x CPU slowdown alone, no network throttling: LCP ${seconds(page.cpuOnly.lcpMs)}, first logo at
  ${seconds(page.cpuOnly.firstLogoMs)}.

${table(['Script', 'Compressed', 'Encoding'], scriptRows)}

Every request until the first logo arrived (ms from navigation start):

${table(['Request', 'Type', 'Start', 'End', 'Body'], waterfallRows)}

${lighthouse.section}
${proofOfWork.section}
${live.section}
## Memory

Resident memory (VmRSS, child processes included) at rest, five seconds after start, and sampled every second
during the vote storm.

${table(['Process', 'At rest', 'Storm mean', 'Storm peak'], memoryRows)}

## What was changed to meet the budgets

Measured with this bench and its scripts while the changes were made (same machine; its load then is given because
it moves the figures):

- **Votes** (\`services/votes/src/cast-vote.ts\`): a vote is inserted first, into a random seat of its address, and
  only a refused insert reads (the voter's earlier vote, then the free seats). Before, every vote read the voter's
  vote and the address's seats first, and the seats query decodes every vote on FerretDB. At 30 votes/s on the same
  stack (load 4.6 to 5): FerretDB CPU per vote 22.2 ms before, 3.6 to 4.3 ms after; p95 927 ms before, 15 to 16 ms after.
- **Session views** (\`services/sessions/src/polls/vote-counts.ts\`): concurrent views of one poll share one count
  (see Mixed voter traffic). Mixed traffic after a storm: session p50 12.2 s before (load 3.4), 2.3 s after (load 7).
- **Logo images** (\`gateway/templates/default.conf.template\`): a one-second \`proxy_cache\` for \`GET /api/logos/\`
  (HEAD bypasses it), keyed on the path, revalidated with ETag, one upstream request per image at a time,
  \`sendfile\`. Before: 315 to 543 requests/s through the gateway against 8018 for nginx static (ratio 0.04 to 0.07).
- **JavaScript on the voting page**: 175.9 kB (gzip, 17 files) before; now brotli at its highest quality and gzip -9
  written at build time beside every asset (\`mfes/rspack.remote.ts\`) and served by \`packages/static-server\` to
  browsers that accept them; the Module Federation runtime built for browsers only (\`target: 'web'\`: 1.8 kB less
  in the shell, 1.7 kB in each \`remoteEntry.js\`); the toast area's code (Radix Toast and its primitives, about
  12 kB) loaded at the first toast or the first pointer or key press instead of with the page
  (\`shells/web/src/deferred-toaster.tsx\`).
- **Largest Contentful Paint**: the page's remote starts loading (runtime configuration, manifest, \`remoteEntry.js\`,
  screen) as soon as the shell's entry script runs, in parallel with React, rather than after it, and
  \`/runtime-config.json\` is preloaded from the HTML. 7.56 s before (load 12), 5.5 s after (load 3 to 8).
- **First load from the HTML** (\`shells/web/index.html\`, \`gateway/templates/default.conf.template\`): the gateway
  writes the runtime configuration, a preload of the route's remote manifest, the poll and a preload of its first
  logo into the page (SSI), and a first paint that needs no script: the poll's first logo with the spec's loading
  text, or the create remote's headline on \`/\`. The shell provides its startup libraries inside its entry script,
  starts the my-vote read while the remote loads, and renders once the remote's screen is there. Fast 3G voting
  page LCP 5.07 s before (the run at 0e1cf3c), 1.29 s after; Lighthouse LCP 2.5 to 2.6 s before, 0.75 to 1.43 s after.
- **Start-up in short tasks** (\`shells/web/src/index.ts\`, \`bootstrap.tsx\`, \`start.ts\`, \`rspack.config.ts\`): after the
  Module Federation runtime's set-up, the remote's loader and React's bootstrap each run in a task of their own; React
  DOM is imported apart, so its evaluation is a task of its own; the shell no longer checks its own eager shared
  libraries' version ranges (at start-up they are the only ones registered; parsing the ranges was the runtime's most
  costly step); the voting page renders once, from the fingerprint and my-vote answer read ahead, as one sliced
  transition, instead of 'Loading' and then the whole screen in one synchronous render; the results page keeps the
  page's poll until its screen mounts, so a sliced render that React starts again no longer shows 'Loading results...'
  first and moves the footer (CLS 0.031 to 0.062 before, 0 after). The entry script is preloaded and run by a 0.6 kB
  \`start.js\` once the first paint's logo is on screen, so its evaluation no longer holds that paint back. Lighthouse on
  \`/vote/:id\` at 100,000 votes, runs of 3 on \`npm start\`: TBT 172 to 298 ms before, 47 to 71 ms after; LCP 1.43 to
  1.59 s before (the paint waited for the entry script's evaluation whenever the script arrived first), 0.91 to 1.03 s
  after. The results screen's module made an \`Intl.DateTimeFormat\` on import (for the reasons' dates): a page's first
  one loads the locale's data, about 18 ms of the results remote's start-up task unthrottled; it is made on first use.
- **Shorter start-up tasks, second round** (\`shells/web/src/remotes/runtime-plugins.ts\`, \`index.ts\`, \`bootstrap.tsx\`,
  \`packages/ui/src/theme.css\`): a Module Federation runtime plugin (\`beforeInitContainer\`, \`beforeGetExpose\`,
  \`beforeExecuteFactory\`) starts each step of loading a remote in a task of its own, so \`remoteEntry.js\`'s load event
  no longer also sets up its container and requests and evaluates the screen (12.8 to 31 ms unthrottled before); the
  entry evaluates the API client and TanStack Query in tasks of their own before the app's first module, makes the
  fingerprint in another, and calls \`createRoot\` after React DOM's evaluation rather than in it; the entry script's
  preload is low priority, since it runs only after the first paint's logo. The kit's sans font is now \`system-ui\`,
  the font of the HTML's first paint: Tailwind's list names fonts most devices lack, and the browser looks each one
  up for every size and weight it lays out (largest layout of the voting page at 4x CPU, 8 loads each: 15.7 to 27 ms
  with Tailwind's list, 8.5 to 14.2 ms with \`system-ui\`). Lighthouse's long tasks on an idle \`npm start\` went from
  five or six of ours per page to mostly one (the entry script's Module Federation set-up, 50 to 64 ms after the 4x
  scaling); 7 of 9 runs scored 100, the two at 99 both with Chromium's navigation commit at 186 to 208 ms. Tried and
  dropped: the eager libraries (zod, TanStack Query, tailwind-merge) in a second entry script beside main, to take
  their compilation out of main's task: Lighthouse's LCP estimate counts every script fetched before the logo's
  paint, and the third request sharing the simulated 1.6 Mbps moved LCP from 0.93 to 1.08 s to 1.23 to 1.40 s.
- **Compiling the start-up scripts while they stream in** (\`CompileHintPlugin\` in \`mfes/rspack.remote.ts\`,
  \`shells/web/src/index.ts\`): Chromium's explicit compile hint (\`//# allFunctionsCalledOnLoad\`, added after
  minification) at the top of the shell's entry script, React DOM's chunk and each remote's \`remoteEntry.js\` has V8
  compile all of their functions on a background thread while they download, instead of each one on the main thread
  when first called. Their tasks in Lighthouse's traces on \`/vote/:id\`, unthrottled, on a machine noisier than the
  session before: the entry script 15.8 to 22.8 ms without, 11.9 to 19.8 ms with; React DOM's chunk 10.8 to 20.2 ms
  without, 7.4 to 14.1 ms with; the vote remote's \`remoteEntry.js\` 6.8 to 22.9 ms without, 4.6 to 13.8 ms with (one
  outlier at 39.5 ms). The first try (the entry script alone, at 9759a1e) was dropped because Lantern's LCP estimate
  went to 1.36 to 1.52 s in about one run in five while the browser's real paint did not move. The cause is in
  Lantern's graph (\`PageDependencyGraph\` of Lighthouse's trace engine): it drops main-thread tasks under 10 ms that
  have a single follow-up, and a script fetched before the largest paint counts as holding that paint back unless
  the graph shows its evaluation starting after it. With the hint the entry script's task sometimes fell under 10 ms
  with one follow-up (the timer of the next start-up step), was dropped, and its 1.6 Mbps download joined the LCP
  estimate. The entry now starts two independent sequences of tasks, the remote's and the app's, so its task has two
  follow-ups and stays in the graph; the remote's steps no longer wait for the libraries' nor the reverse. Of 22 runs
  on \`/vote/:id\` and \`/results/:id\` after both changes, none had an LCP over 1.19 s. React DOM's chunk and the
  remotes' entries are requested only after the largest paint, so the graph never counts their downloads against it.
- **Measuring on a quiet machine** (\`bench/lib/lighthouse-levels.ts\`): Lighthouse times the page's tasks for real and
  multiplies them by 4, so the bench now waits for a second with under 15 % of the CPU busy before each set of runs
  and reports what it found. Even so, runs of the same page on an idle machine score 97 to 100 (\`/results/:id\` at 2
  votes, 5 runs: 100, 100, 100, 100, 97), moved by Chromium's own first task (committing the navigation takes 13 to
  62 ms unthrottled from run to run) and by which other tasks cross Lighthouse's 50 ms line after the 4x scaling.
  Lighthouse places that task's end after its simulated first paint, so a long commit alone counts up to 120 ms
  of Total Blocking Time.
- **The address bar's popup switched off** (\`bench/lib/lighthouse-runs.mjs\`): Chromium 156 runs the address bar's
  suggestion popup as a WebUI page in a renderer of its own (\`chrome://omnibox-popup.top-chrome\`, in the DevTools target
  list even headless). Around each measured page's navigation commit it took 8 to 45 ms of CPU (Lighthouse traces on
  \`/vote/:id\`, the 170 ms from 20 ms before the commit), competing on two cores with the page's first tasks, whose
  real times Lighthouse multiplies by 4. It is disabled (\`WebUIOmniboxPopup\`, \`WebUIOmniboxAimPopup\`) in the same
  \`--disable-features\` list as the background features chrome-launcher disables (Chromium reads only the last such flag).
- **The entry script holds only what runs at start-up** (\`shells/web/rspack.config.ts\`, \`shells/web/src/index.ts\`):
  TanStack Query, the API client, tailwind-merge and the UI kit's other libraries are no longer provided eagerly
  inside the shell's entry script but from chunks of their own, which the entry requests as soon as it runs, each
  import started in a task of its own, together with the app's first module and the page's remote. The page still
  makes two rounds of requests after the entry script (the libraries, the app's first module and the remote; then
  React DOM's chunk and the my-vote read). The entry script went from 249 kB (64.1 kB brotli) to 158 kB (39.6 kB);
  compiled in full as it streams in (the compile hint above), its task no longer also finalises the compiled code of
  libraries that run only in later tasks. Its task in Lighthouse's traces, unthrottled: 9.3 to 24.1 ms before (5 runs
  on \`/vote/:id\`), 7.4 to 14.1 ms after (13 runs on \`/\`, \`/vote/:id\` and \`/results/:id\`), so after the 4x
  scaling it mostly stays under Lighthouse's 50 ms line. Chromium's navigation commit, 18 to 61 ms in the same runs, is
  unchanged, and still decides most runs that miss 100. (The tried and dropped second entry script above took the
  libraries out of the entry's task too, but was preloaded before the logo's paint; these chunks are requested after it.)

Not changed, and what would help further:

- Total Blocking Time is what still moves the performance score (Lighthouse multiplies every task it records by 4, so
  a busier machine gives longer tasks). The long tasks left: Chromium's own first task (committing the navigation,
  parsing the HTML, the first layout), which ends after the first paint (19 to 56 ms unthrottled, nearly all of it
  Chromium's and Lighthouse's own: creating the page's script context and running Lighthouse's injected scripts); the
  entry script's Module Federation set-up (7 to 14 ms unthrottled, partly the SDK's first \`localStorage\` read for its
  debug flag; the runtime is some 100 kB of the script's 158 kB); React DOM's evaluation
  (its compilation and first run, 7 to 14 ms); on \`/\`,
  Radix Tooltip's code, which loads with the page although only the creation dialog has tooltips (the create remote
  imports the UI kit through its one entry point; moving the tooltip provider into the dialog did not drop it).
  Subpath entry points in \`packages/ui\` may let a page load only the primitives it uses; not tried.
- "JavaScript before the first logo" is now 0: the first logo arrives with the HTML, before any script, so that
  row no longer bounds the code a voter waits for. Measuring the bytes before the voting screen can take a vote
  would (the page-load measurement waits for the first logo); not done yet.
- Counting on FerretDB decodes every vote stored; production's MongoDB answers from the \`{ pollId, logoId }\` index.
`;
}
