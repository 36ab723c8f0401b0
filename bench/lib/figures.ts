/**
 * A bench's measurements turned into the data file docs/performance.json: the budgeted figures (their value, and
 * the Budgets table's Measured cell), the other figures the report's prose quotes, and its tables, all formatted.
 * bench/lib/report.ts renders docs/performance.md from that file alone.
 */
import { metricValue, type K6Run } from './k6';
import { MOBILE_PROFILE, type PageLoad } from './page-load';
import type { ReadCosts } from './database';
import type { ProofOfWorkResults } from './proof-of-work';
import type { ReasonThemesCpu } from './reason-themes';
import type { LighthouseLevel } from './lighthouse-levels';
import { LIGHTHOUSE_CATEGORIES, lcpElementName, type LighthouseSummary } from './lighthouse';
import { BULK_BATCH, FLOW_CONCURRENCY, PROBED, probeMs, type FlowCosts, type ScaleProbe, type ScaleResults } from './scale';
import type { LiveResults } from './live';
import { LOGO_KIND_DESCRIPTIONS, type LogoKindsResults } from './logo-kinds';
import { SLOW_PHONE } from './slow-phone';
import { sustainedVoteRate, type StormStep, type VoteStormResults } from './storm';
import { OTHER_CATEGORIES, POLL_KINDS, PROBES, SHAPES, VOTING_PAGES } from './budgets';
import { median, percentile } from './stats';
import type { PerformanceData } from './report';

export type Section = Partial<PerformanceData>;

const MB = 1000 * 1000;
const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const ms = (value: number) => `${fixed(value, value < 10 ? 1 : 0)} ms`;
const kb = (bytes: number) => `${fixed(bytes / 1000, 1)} kB`;
const mb = (bytes: number) => `${fixed(bytes / MB, bytes < 10 * MB ? 2 : 0)} MB`;
const seconds = (value: number) => `${fixed(value / 1000, 2)} s`;
const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const count = (value: number) => value.toLocaleString('en');
const cell = (text: string) => text.replace(/\s+/g, ' ').replaceAll('|', '\\|');
const figure = (value: number, measured: string) => ({ value, measured });
const list = <Item>(items: Item[], format: (item: Item) => string, separator = ', ') => items.map((item) => format(item)).join(separator);
/** `main` and, in brackets, each of `items` (every run, say) as `format` gives it. */
const withEach = <Item>(main: string, items: Item[], format: (item: Item) => string) => `${main} (${list(items, format)})`;
/** `a ÷ b` as a figure, its parts formatted by `format`. */
const ratio = (a: number, b: number, format: (value: number) => string = fixed) =>
  figure(a / b, `${format(a)} ÷ ${format(b)} = **${fixed(a / b, 2)}**`);
const p50p95 = (p50: number, p95: number) => `${ms(p50)} / ${ms(p95)}`;
/** A table's row of one figure across its columns: `name`, then `value` of each column. */
const rowOf =
  <Column>(columns: Column[]) =>
  (name: string, value: (column: Column) => string) => [name, ...columns.map((column) => value(column))];

/** Every section's figures in one data file. */
export const mergeSections = (...sections: Section[]): PerformanceData => ({
  figures: Object.assign({}, ...sections.map((section) => section.figures)),
  text: Object.assign({}, ...sections.map((section) => section.text)),
  tables: Object.assign({}, ...sections.map((section) => section.tables)),
});

interface RunInfo {
  command: string;
  date: string;
  durationSeconds: number;
  buildSeconds: number;
  machine: { cpu: string; memoryGiB: number; kernel: string; node: string; tools: string };
  load: { atStart: number[]; mean: number; max: number; atEnd: number[] };
  rateLimits: Record<string, string>;
}

export const runSection = (run: RunInfo): Section => ({
  text: {
    command: run.command,
    date: run.date.slice(0, 10),
    duration: `${fixed(run.durationSeconds)} s in all${run.buildSeconds > 1 ? `, ${fixed(run.buildSeconds)} s of it the build` : ' (build skipped)'}`,
    load: `at start ${load(run.load.atStart)}; during the run mean ${fixed(run.load.mean, 2)}, max ${fixed(run.load.max, 2)} (1 min); at the end ${load(run.load.atEnd)}`,
    rateLimits: list(Object.entries(run.rateLimits), ([name, value]) => `\`${name}=${value}\``),
  },
  tables: {
    machine: [
      ['', ''],
      ['CPU', run.machine.cpu],
      ['Memory', `${fixed(run.machine.memoryGiB, 1)} GiB`],
      ['Kernel', run.machine.kernel],
      ['Node.js', run.machine.node],
      ['Tools', run.machine.tools],
    ],
  },
});

/** k6 thresholds crossed, but for the storm's steps above the sustained rate, which cross theirs by design. */
export const crossedSection = (runs: K6Run[]): Section => ({
  tables: {
    crossed: [
      ['k6 script', 'Threshold crossed'],
      ...runs.flatMap((run) => run.crossed.map((threshold) => [`\`${run.script}\``, `\`${threshold}\``])),
    ],
  },
});

const stepsTable = (steps: StormStep[]) => [
  ['Target votes/s', 'Achieved votes/s', 'p50', 'p95', 'Failed', 'Dropped', 'Sustained'],
  ...steps.map((step) => [
    String(step.targetRate),
    fixed(step.achievedRate, 1),
    ms(step.p50Ms),
    ms(step.p95Ms),
    `${fixed(step.failedRate * 100, 2)} %`,
    fixed(step.dropped),
    step.sustained ? 'yes' : 'no',
  ]),
];

export function stormSection({ referenceStorm, storm, exact }: Pick<VoteStormResults, 'referenceStorm' | 'storm' | 'exact'>): Section {
  const sustained = sustainedVoteRate(storm.steps)?.achievedRate ?? 0;
  const reference = sustainedVoteRate(referenceStorm.steps)?.achievedRate ?? Number.NaN;
  const share = sustained / reference;
  return {
    figures: {
      'votes.share': ratio(sustained, reference),
      'counts.wrong': figure(
        exact.mismatches + exact.uncertain + Math.abs(exact.votes - exact.expectedVotes),
        `${exact.votes} counted, ${exact.expectedVotes} acknowledged; ${exact.mismatches} logos differ; ${exact.uncertain} votes unanswered`,
      ),
    },
    text: {
      'storm.reference': fixed(reference),
      'storm.sustained': fixed(sustained, 1),
      'storm.share': fixed(share, 2),
      'storm.stepSeconds': String(storm.stepSeconds),
      'storm.vus': String(storm.vus),
      'storm.polls': String(exact.polls),
    },
    tables: { referenceStorm: stepsTable(referenceStorm.steps), storm: stepsTable(storm.steps) },
  };
}

export function creationSection(creation: { run: K6Run; sizes: number[] }): Section {
  const stat = (metric: string, name: string) => metricValue(creation.run, metric, name);
  const both = (metric: string) => [ms(stat(metric, 'med')), ms(stat(metric, 'p(95)'))];
  const p95 = stat('http_req_duration{name:create}', 'p(95)');
  return {
    figures: {
      'creation.p95Ms': figure(
        p95,
        `**${ms(p95)}** (p50 ${ms(stat('http_req_duration{name:create}', 'med'))}; the checks p50 ${ms(stat('create_checks', 'med'))}); logos of ${mb(Math.max(...creation.sizes))}`,
      ),
    },
    text: { 'creation.count': fixed(stat('iterations', 'count')), 'creation.sizes': creation.sizes.map(mb).join(', ') },
    tables: {
      creation: [
        ['', 'p50', 'p95'],
        [`Whole request (${mb(sum(creation.sizes))} uploaded)`, ...both('http_req_duration{name:create}')],
        ['Checks: type, full decode and content moderation (`Server-Timing: checks`)', ...both('create_checks')],
        ['Storing: poll record and four objects (`Server-Timing: store`)', ...both('create_store')],
      ],
    },
  };
}

export const readCostsSection = (costs: ReadCosts): Section => ({
  text: { 'reads.votes': String(costs.votes) },
  tables: {
    readCosts: [
      ['Query', 'Made by', 'Time'],
      ['a vote by its key (`_id`)', 'a changed vote, every my-vote', ms(costs.findByIdMs)],
      ['the seats of an address (`pollId`, `ipHash`)', 'a first vote whose random seat was taken', ms(costs.seatsMs)],
      ['the counts per logo of a poll (`pollId`, by `logoId`)', 'every session view (voting and results pages)', ms(costs.countsMs)],
    ],
  },
});

export const trafficSection = (traffic: K6Run): Section => ({
  text: {
    'traffic.visitors': fixed(metricValue(traffic, 'iterations', 'count')),
    'traffic.rate': fixed(metricValue(traffic, 'http_reqs', 'rate')),
  },
  tables: {
    traffic: [
      ['Request', 'p50', 'p95', 'max'],
      ...['session', 'logo', 'my_vote', 'vote', 'results'].map((name) => [
        name,
        ...['med', 'p(95)', 'max'].map((stat) => ms(metricValue(traffic, `http_req_duration{name:${name}}`, stat))),
      ]),
    ],
  },
});

interface LogoRounds {
  gateway: K6Run[];
  nginxStatic: K6Run[];
  sizes: number[];
  clients: number;
  roundSeconds: number;
}

export function logosSection(logos: LogoRounds): Section {
  const rates = (runs: K6Run[]) => runs.map((run) => metricValue(run, 'http_reqs', 'rate'));
  const [gateway, nginxStatic] = [median(rates(logos.gateway)), median(rates(logos.nginxStatic))];
  const durations = (runs: K6Run[], stat: string) => ms(median(runs.map((run) => metricValue(run, 'http_req_duration', stat))));
  const row = (name: string, runs: K6Run[]) => [
    name,
    withEach(`**${fixed(median(rates(runs)))}**`, rates(runs), fixed),
    durations(runs, 'med'),
    durations(runs, 'p(95)'),
    `${fixed(Math.max(...runs.map((run) => metricValue(run, 'http_req_failed', 'rate'))) * 100, 2)} %`,
  ];
  return {
    figures: { 'logos.share': ratio(gateway, nginxStatic) },
    text: {
      'logos.clients': String(logos.clients),
      'logos.sizes': logos.sizes.map(kb).join(', '),
      'logos.rounds': String(logos.gateway.length),
      'logos.roundSeconds': String(logos.roundSeconds),
    },
    tables: {
      logos: [
        ['Served by', 'Requests/s', 'p50', 'p95', 'Failed'],
        row('gateway `/api/logos/…`', logos.gateway),
        row('nginx static file', logos.nginxStatic),
      ],
    },
  };
}

const shortUrl = (url: string) => {
  const { pathname } = new URL(url);
  return pathname.length > 60 ? `${pathname.slice(0, 57)}...` : pathname;
};

export function firstLoadSection(page: { loads: PageLoad[]; medianLcpMs: number; cpuOnly: PageLoad }): Section {
  const first = page.loads[0]!;
  const js = first.jsBeforeFirstLogo;
  const untilLogo = first.resources.filter((resource) => resource.startMs <= first.firstLogoMs);
  return {
    figures: {
      'firstLoad.jsBytes': figure(
        js.bodyBytes,
        `**${kb(js.bodyBytes)}** (${js.bodyBytes} bytes in ${js.files} files; ${kb(js.transferBytes)} with headers)`,
      ),
      'firstLoad.lcpMs': figure(
        page.medianLcpMs,
        withEach(`**${seconds(page.medianLcpMs)}**`, page.loads, (each) => seconds(each.lcpMs)),
      ),
    },
    text: {
      'firstLoad.profile': MOBILE_PROFILE.name,
      'firstLoad.acceptEncoding': first.acceptEncoding,
      'firstLoad.lcps': page.loads.map((each) => `${seconds(each.lcpMs)} (${cell(each.lcpElement)})`).join('; '),
      'firstLoad.firstLogo': seconds(first.firstLogoMs),
      'firstLoad.cpuOnly': `LCP ${seconds(page.cpuOnly.lcpMs)}, first logo at ${seconds(page.cpuOnly.firstLogoMs)}`,
    },
    tables: {
      firstLoadRequests: [
        ['Request', 'Type', 'Start', 'End', 'Body', 'Encoding'],
        ...untilLogo.map((resource) => [
          shortUrl(resource.url),
          resource.type,
          fixed(resource.startMs),
          fixed(resource.endMs),
          kb(resource.bodyBytes),
          resource.contentEncoding || 'none',
        ]),
      ],
    },
  };
}

const storeName = (level: LighthouseLevel) => (level.storedVotes === 0 ? 'empty store' : `${count(level.storedVotes)} votes`);
const element = (summary: LighthouseSummary) => cell(lcpElementName(summary).replace(/^(.{60}).+? \(`/, '$1… (`'));
/** The median run's score in bold, every run's in brackets. */
const performanceRuns = (summary: LighthouseSummary) =>
  withEach(`**${fixed(summary.scores.performance)}**`, summary.runs, (run) => fixed(run.performance));
/** The median run's LCP (in bold with `mark` = '**'), every run's in brackets. */
const lcpRuns = (summary: LighthouseSummary, mark = '') =>
  withEach(`${mark}${seconds(summary.metrics.lcpMs)}${mark}`, summary.runs, (run) => seconds(run.lcpMs));

export function lighthouseSection(levels: LighthouseLevel[]): Section {
  const measured = levels.flatMap((level) => level.pages.map((page) => ({ level, page })));
  const levelNames = levels.map(storeName).join(' / ');
  const first = measured[0]?.page;
  const figures: PerformanceData['figures'] = {};
  const perLevel = (values: number[], format: (value: number) => string) =>
    `${values.map((value) => `**${format(value)}**`).join(' / ')} (${levelNames})`;
  for (const label of VOTING_PAGES) {
    const pages = levels.map((level) => level.pages.find((page) => page.label === label));
    const scores = pages.map((page) => page?.scores.performance ?? Number.NaN);
    const lcps = pages.map((page) => page?.metrics.lcpMs ?? Number.NaN);
    figures[`lighthouse.${label}.performance`] = figure(Math.min(...scores), perLevel(scores, fixed));
    figures[`lighthouse.${label}.lcpMs`] = figure(Math.max(...lcps), perLevel(lcps, seconds));
  }
  const otherCategories = Object.keys(OTHER_CATEGORIES) as (keyof typeof OTHER_CATEGORIES)[];
  for (const category of otherCategories) {
    const lowest = Math.min(...measured.map(({ page }) => page.scores[category]));
    const where = measured
      .filter(({ page }) => page.scores[category] === lowest)
      .map(({ level, page }) => `\`${page.label}\`, ${storeName(level)}`);
    figures[`lighthouse.${category}`] = figure(lowest, `**${fixed(lowest)}** (${lowest < 100 ? where.join('; ') : levelNames})`);
  }
  return {
    figures,
    text: {
      'lighthouse.version': first?.lighthouseVersion ?? 'n/a',
      'lighthouse.chromium': /Chrome\/([\d.]+)/.exec(first?.browserVersion ?? '')?.[1] ?? 'unknown',
      'lighthouse.failedRuns': measured
        .filter(({ page }) => page.failedRuns.length > 0)
        .map(({ level, page }) => `\`${page.label}\` (${storeName(level)}): ${page.failedRuns.join(', ')}`)
        .join('; '),
      'lighthouse.warnings': [...new Set(measured.flatMap(({ page }) => page.warnings))].map(cell).join(' '),
    },
    tables: {
      lighthouseLevels: [
        ['Data', 'Votes of the measured poll', 'CPU busy after settling', 'Load (1/5/15 min)', 'BenchmarkIndex'],
        ...levels.map((level) => {
          const indexes = level.pages.map((page) => page.benchmarkIndex);
          return [
            storeName(level),
            String(level.pollVotes),
            `${Math.round(level.busyShare * 100)} % after ${level.settleSeconds} s`,
            load(level.load),
            `${fixed(Math.min(...indexes))} to ${fixed(Math.max(...indexes))}`,
          ];
        }),
      ],
      lighthouse: [
        ['Page', 'Data', 'Performance', 'LCP', 'FCP', 'TBT', 'CLS', 'Accessibility', 'Best practices', 'SEO', 'LCP element'],
        ...measured.map(({ level, page }) => [
          `\`${page.label}\``,
          storeName(level),
          performanceRuns(page),
          seconds(page.metrics.lcpMs),
          seconds(page.metrics.fcpMs),
          ms(page.metrics.tbtMs),
          fixed(page.metrics.cls, 3),
          ...otherCategories.map((category) => fixed(page.scores[category])),
          element(page),
        ]),
      ],
      lighthouseAudits: [
        ['Page', 'Data', 'LCP parts (unthrottled)', 'Scored audits not fully passed'],
        ...measured.map(({ level, page }) => [
          `\`${page.label}\``,
          storeName(level),
          list(Object.entries(page.lcp.partsMs), ([part, value]) => `${part} ${ms(value)}`) || 'not given',
          LIGHTHOUSE_CATEGORIES.flatMap((category) =>
            page.failing[category].map((audit) => `${category} \`${audit.id}\` ${fixed(audit.score, 2)}`),
          ).join(', ') || 'none',
        ]),
      ],
    },
  };
}

export function logoKindsSection(results: LogoKindsResults): Section {
  const figures: PerformanceData['figures'] = {};
  const pages = [
    { kind: 'any', summary: results.landing },
    ...results.kinds.flatMap(({ kind, pages }) => pages.map((summary) => ({ kind, summary }))),
  ];
  for (const { kind, summary } of pages) {
    const id = `logoKinds.${kind}.${summary.label}`;
    figures[`${id}.performance`] = figure(summary.scores.performance, performanceRuns(summary));
    figures[`${id}.lcpMs`] = figure(summary.metrics.lcpMs, lcpRuns(summary, '**'));
  }
  const slowRows = results.kinds.map(({ kind, slowPhone }) => {
    const column = (pick: (load: (typeof slowPhone)[number]) => number) =>
      withEach(seconds(median(slowPhone.map(pick))), slowPhone, (each) => seconds(pick(each)));
    const question = median(slowPhone.map((each) => each.questionMs));
    const button = median(slowPhone.map((each) => each.voteButtonMs));
    figures[`slowPhone.${kind}`] = figure(
      median(slowPhone.map((each) => Math.max(each.questionMs, each.voteButtonMs))),
      `**${seconds(question)}** and **${seconds(button)}** (button ${slowPhone.map((each) => seconds(each.voteButtonMs)).join(', ')})`,
    );
    return [
      kind,
      ...(['questionMs', 'firstLogoMs', 'voteButtonMs', 'tapMs', 'votedMs'] as const).map((key) => column((each) => each[key])),
    ];
  });
  return {
    figures,
    text: {
      'logoKinds.descriptions': list(Object.entries(LOGO_KIND_DESCRIPTIONS), ([kind, description]) => `${kind}, ${description}`, '; '),
      'logoKinds.conditions': `${Math.round(results.busyShare * 100)} % of the CPU busy after ${results.settleSeconds} s of settling, load ${load(results.load)} at the start`,
      'logoKinds.slowPhone': SLOW_PHONE.name,
    },
    tables: {
      logoKinds: [
        ['Page', 'Logos', 'Performance', 'LCP', 'TBT', 'CLS', 'LCP element'],
        ...pages.map(({ kind, summary }) => [
          `\`${summary.label}\``,
          kind,
          performanceRuns(summary),
          lcpRuns(summary),
          withEach(ms(summary.metrics.tbtMs), summary.runs, (run) => ms(run.tbtMs)),
          fixed(summary.metrics.cls, 3),
          element(summary),
        ]),
      ],
      slowPhone: [['Logos', 'Question', 'First logo', 'Usable Vote button', 'Tap', "'Voted!'"], ...slowRows],
    },
  };
}

const perFlow = (value: number, voters: number) => fixed(value / voters, 2);
const commandsOf = (costs: FlowCosts) => sum(Object.values(costs.dbCommands).flatMap((counts) => Object.values(counts)));
const cpuOf = (costs: FlowCosts, name: string) => costs.cpu.find((each) => each.name === name)?.seconds ?? 0;
const requestTimes = (costs: FlowCosts) =>
  (['session', 'myVote', 'vote'] as const).map((name) => p50p95(costs.requestMs[name].p50, costs.requestMs[name].p95)).join(', ');
const failuresOf = ({ failedFlows, failures }: FlowCosts) =>
  Object.keys(failures).length > 0
    ? withEach(String(failedFlows), Object.entries(failures), ([failure, n]) => `${n} × ${failure}`)
    : String(failedFlows);

export function scaleSection(scale: ScaleResults): Section {
  const { shapes, cores } = scale;
  // Each shape's flows, then the reference flows after them.
  const columns = shapes.flatMap((shape): FlowCosts[] => [shape, shape.reference]);
  const titles = shapes.flatMap((shape) => [SHAPES[shape.shape], `reference, ${SHAPES[shape.shape]}`]);
  const figures: PerformanceData['figures'] = {};
  const row = rowOf(columns);
  for (const shape of shapes) {
    const commands = commandsOf(shape) / shape.voters;
    figures[`scale.${shape.shape}.share`] = ratio(shape.voters / shape.seconds, shape.reference.voters / shape.reference.seconds);
    figures[`scale.${shape.shape}.wrong`] = figure(
      shape.failedFlows + shape.exact.mismatches,
      `${shape.failedFlows} failed of ${count(shape.voters)}; ${shape.exact.counted} votes counted of ${shape.exact.expected} cast, ${shape.exact.mismatches} logos differ`,
    );
    figures[`scale.${shape.shape}.commands`] = figure(commands, `**${fixed(commands, 2)}**`);
  }
  // A voter's CPU on one process bounds the voters/s that all the cores could carry, were that process alone.
  const ceiling = (cpuSeconds: number, costs: FlowCosts) => fixed((cores * costs.voters) / cpuSeconds);
  const servers = [...new Set(columns.flatMap((costs) => Object.keys(costs.dbCommands)))];
  const commandNames = [...new Set(columns.flatMap((costs) => Object.values(costs.dbCommands).flatMap(Object.keys)))].sort();
  const commandOf = (costs: FlowCosts, server: string, command: string) =>
    sum(Object.entries(costs.dbCommands).flatMap(([name, counts]) => (server === '' || name === server ? [counts[command] ?? 0] : [])));
  // Each server's commands and their sum, then the same over all servers ('' standing for all); rows of zeros left out.
  const commandRows = [...servers, ''].flatMap((server) =>
    [...commandNames, ''].flatMap((command) => {
      const value = (costs: FlowCosts) => sum((command ? [command] : commandNames).map((each) => commandOf(costs, server, each)));
      const name = server || 'all servers';
      if (columns.every((costs) => value(costs) === 0)) return [];
      return [[command ? name : `**${name}**`, command || 'all', ...columns.map((costs) => perFlow(value(costs), costs.voters))]];
    }),
  );
  const processNames = [...new Set(columns.flatMap((costs) => costs.cpu.map((each) => each.name)))];
  const msPerVoter = (cpuSeconds: number, costs: FlowCosts) =>
    `${fixed(cpuSeconds, 1)} s, **${fixed((cpuSeconds * 1000) / costs.voters, 2)} ms**`;
  const [, hundredThousand, million] = scale.probes;
  for (const name of scale.probes.length > 0 ? PROBED : []) {
    const p95 = (probe?: ScaleProbe) => (probe ? probeMs(probe, name, 'p(95)') : Number.NaN);
    const [at100k, at1m] = [p95(hundredThousand), p95(million)];
    figures[`probes.${name}.p95Ms`] = figure(at100k, `**${ms(at100k)}**`);
    figures[`probes.${name}.factor`] = ratio(at1m, at100k, ms);
  }
  return {
    figures,
    text: {
      'scale.cores': String(cores),
      'scale.concurrency': String(FLOW_CONCURRENCY),
      'scale.bulk': scale.bulk
        ? `Then ${count(scale.bulk.votes)} more votes were written in ${fixed(scale.bulk.seconds)} s by the product's own key scheme (one tally step per ${BULK_BATCH} votes of a poll, as the folder would leave them); ${scale.pendingAtProbe.join(' and ')} ledger entries were still pending when the probes at 100 000 and 1 000 000 began.`
        : '',
    },
    tables: {
      scaleFlows: [
        ['Per voter flow', ...titles],
        row('voters, polls', (costs) => `${count(costs.voters)}${'polls' in costs ? `, ${String(costs.polls)}` : ''}`),
        row('flows/s', (costs) => `**${fixed(costs.voters / costs.seconds)}** (in ${fixed(costs.seconds)} s)`),
        row('failed flows', failuresOf),
        row('session, my-vote, vote: p50 / p95', requestTimes),
        row('load at the end', (costs) => load(costs.load)),
        row('database commands', (costs) => `**${perFlow(commandsOf(costs), costs.voters)}**`),
        row('PostgreSQL rows read (`seq_tup_read` + `idx_tup_fetch`)', (costs) =>
          perFlow(sum(Object.values(costs.rowsRead)), costs.voters),
        ),
        row('CPU, the whole machine', (costs) => `${fixed((costs.machineCpuSeconds * 1000) / costs.voters, 1)} ms`),
        row('FerretDB CPU per database command', (costs) => ms((cpuOf(costs, 'FerretDB') * 1000) / commandsOf(costs))),
        row(`voters/s FerretDB alone could carry on ${cores} cores`, (costs) => ceiling(cpuOf(costs, 'FerretDB'), costs)),
        row('voters/s the database could carry (FerretDB and PostgreSQL)', (costs) =>
          ceiling(cpuOf(costs, 'FerretDB') + cpuOf(costs, 'PostgreSQL'), costs),
        ),
        row('voters/s the whole machine could carry', (costs) => ceiling(costs.machineCpuSeconds, costs)),
      ],
      scaleCommands: [['Server', 'Command', ...titles], ...commandRows],
      scaleTables: [
        ['', ...titles],
        ...[0, 1, 2].map((rank) => [
          String(rank + 1),
          ...columns.map((costs) => {
            const [table, rows] = Object.entries(costs.rowsRead).sort(([, a], [, b]) => b - a)[rank] ?? [];
            return table === undefined ? '' : `${table}: ${perFlow(rows!, costs.voters)}`;
          }),
        ]),
      ],
      scaleCpu: [
        ['Process', ...titles],
        ...processNames
          .filter((name) => columns.some((costs) => cpuOf(costs, name) !== 0))
          .map((name) => row(name, (costs) => msPerVoter(cpuOf(costs, name), costs))),
        row('the rest of the machine (anything else it ran)', (costs) =>
          msPerVoter(costs.machineCpuSeconds - sum(costs.cpu.map((each) => each.seconds)), costs),
        ),
        row('all', (costs) => msPerVoter(costs.machineCpuSeconds, costs)),
      ],
      ...(scale.probes.length > 0 && {
        scaleProbes: [
          ['Request', ...scale.probes.map((probe) => `${count(probe.storedVotes)} votes stored (load ${probe.load[0]!.toFixed(2)})`)],
          ...PROBED.map((name) => [
            PROBES[name].label,
            ...scale.probes.map((probe) => p50p95(probeMs(probe, name, 'med'), probeMs(probe, name, 'p(95)'))),
          ]),
        ],
      }),
    },
  };
}

export function proofOfWorkSection(results: ProofOfWorkResults): Section {
  const figures: PerformanceData['figures'] = {};
  const kinds = results.kinds.map((kind) => {
    const phone = kind.pageSolves.map((solve) => solve.solveMs * results.cpuSlowdown);
    // A solve tries counters from 0 up to the solution: its time over its attempts is the time of one attempt.
    const phonePerAttempt = sum(phone) / sum(kind.pageSolves.map((solve) => solve.attempts));
    const solves = kind.script.flatMap((level) => level.solves);
    const cpuPerAttempt = sum(solves.map((solve) => solve.cpuMs)) / sum(solves.map((solve) => solve.attempts));
    // The solution is drawn below twice the level's attempts: the longest a phone can wait.
    const bound = 2 * kind.officeAttempts * phonePerAttempt;
    const scriptMs = sum(kind.script.map((level) => level.voters * level.attempts * cpuPerAttempt));
    figures[`pow.${kind.kind}.phoneMs`] = figure(
      bound,
      `**${seconds(bound)}** (${phone.length} solves: median ${seconds(percentile(phone, 0.5))}, p95 ${seconds(percentile(phone, 0.95))}, max ${seconds(Math.max(...phone))})`,
    );
    figures[`pow.${kind.kind}.scriptMs`] = figure(scriptMs, `**${fixed(scriptMs / 1000, 1)} s** (${solves.length} solves)`);
    return { ...kind, phone, phonePerAttempt, cpuPerAttempt, bound, scriptMs };
  });
  const row = rowOf(kinds);
  return {
    figures,
    text: { 'pow.iterations': String(results.iterations), 'pow.workers': String(results.workers) },
    tables: {
      pow: [
        ['', ...kinds.map(({ kind }) => POLL_KINDS[kind])],
        row('voters of an address without a proof', (kind) => String(kind.freeVoters)),
        row("the 200th voter's level", (kind) => `${kind.officeLevel}, ${kind.officeAttempts} attempts on average`),
        row("a phone's solves at that level (×4), s", (kind) => kind.phone.map((value) => fixed(value / 1000, 2)).join(', ')),
        row('a phone, an attempt', (kind) => `${fixed(kind.phonePerAttempt, 2)} ms`),
        row('the longest wait possible', (kind) => seconds(kind.bound)),
        row('a script, CPU an attempt', (kind) => `${fixed(kind.cpuPerAttempt, 3)} ms`),
        row("a script's CPU for 200 voters", (kind) => `${fixed(kind.scriptMs / 1000, 1)} s`),
      ],
      powLevels: [
        ['Poll', 'Level', 'Voters of the first 200', 'Attempts on average', 'Single solves (CPU)', 'Expected CPU per voter'],
        ...kinds.flatMap((kind) =>
          kind.script.map((level) => [
            POLL_KINDS[kind.kind],
            String(level.level),
            String(level.voters),
            String(level.attempts),
            level.solves.map((solve) => ms(solve.cpuMs)).join(', '),
            ms(level.attempts * kind.cpuPerAttempt),
          ]),
        ),
      ],
    },
  };
}

export function liveSection(live: LiveResults): Section {
  const footprint = (name: string, which: 'gateway' | 'sessions') => {
    const [before, withStreams] = [live.footprint.before[which], live.footprint.withStreams[which]];
    return [
      name,
      `${mb(before.residentBytes)}, ${fixed(before.openFiles)} files`,
      `${mb(withStreams.residentBytes)}, ${fixed(withStreams.openFiles)} files`,
      kb((withStreams.residentBytes - before.residentBytes) / live.viewers),
    ];
  };
  const { oneViewer, allViewers } = live.readsPerVote;
  return {
    figures: {
      'live.deliveryP95Ms': figure(
        live.deliveryMs.p95,
        `**${ms(live.deliveryMs.p95)}** (p50 ${ms(live.deliveryMs.p50)}) on ${live.viewers} streams`,
      ),
      'live.undelivered': figure(
        live.deliveries.expected - live.deliveries.received,
        `${live.deliveries.received} of ${live.deliveries.expected} delivered`,
      ),
      'live.extraReadsPerVote': figure(allViewers - oneViewer, `**${fixed(allViewers, 1)} ÷ ${fixed(oneViewer, 1)}**`),
    },
    text: {
      'live.viewers': String(live.viewers),
      'live.addresses': String(live.addresses),
      'live.perAddress': String(Math.ceil(live.viewers / live.addresses)),
      'live.openSeconds': fixed(live.openSeconds, 1),
      'live.votes': String(live.votes),
      'live.delivery': `p50 ${ms(live.deliveryMs.p50)}, p95 ${ms(live.deliveryMs.p95)}, max ${ms(live.deliveryMs.max)} (${live.deliveries.received} of ${live.deliveries.expected} events)`,
      'live.vote': `p50 ${ms(live.voteMs.p50)}, max ${ms(live.voteMs.max)}`,
      'live.load': `${fixed(live.load[0], 2)} then ${fixed(live.load[1], 2)}`,
      'live.votesPerWindow': String(live.votesPerWindow),
      'live.reads': `${fixed(oneViewer, 1)} with one viewer, ${fixed(allViewers, 1)} with ${live.viewers}; without votes, ${fixed(live.idleReadsPerSecond.oneViewer, 1)} and ${fixed(live.idleReadsPerSecond.allViewers, 1)} a second`,
    },
    tables: {
      liveFootprint: [
        ['Process', 'Before the streams', `With ${live.viewers} streams`, 'Per stream'],
        footprint('Gateway (nginx, all processes)', 'gateway'),
        footprint('Sessions service', 'sessions'),
      ],
    },
  };
}

export const reasonThemesSection = (cpu: ReasonThemesCpu): Section => ({
  figures: {
    'themes.cpuMs': figure(
      cpu.coldMs,
      `**${ms(cpu.coldMs)}** cold (warm: median ${ms(cpu.warmMedianMs)}, slowest ${ms(cpu.warmMaxMs)} of ${cpu.warmRuns}); this machine sorts 1 000 000 numbers in ${ms(cpu.workloadMs)}`,
    ),
  },
});

export const memorySection = (memory: {
  atRest: Record<string, number>;
  underStorm: Record<string, { peak: number; mean: number }>;
}): Section => ({
  tables: {
    memory: [
      ['Process', 'At rest', 'Storm mean', 'Storm peak'],
      ...Object.entries(memory.atRest).map(([name, bytes]) => {
        const storm = memory.underStorm[name];
        return [name, mb(bytes), mb(storm?.mean ?? Number.NaN), mb(storm?.peak ?? Number.NaN)];
      }),
    ],
  },
});
