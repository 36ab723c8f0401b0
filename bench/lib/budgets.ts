/**
 * The budgets docs/performance.md holds the bench's figures to: each figure's key in the bench's data file
 * (docs/performance.json), its name in the report, how it is compared and with what, and the budget as shown.
 */

interface Budget {
  id: string;
  name: string;
  /** Met when the figure is at least, at most or exactly `limit`. */
  compare: 'atLeast' | 'atMost' | 'exactly';
  limit: number;
  shown: string;
}

const atLeast = (id: string, name: string, limit: number, shown = `≥ ${limit}`): Budget => ({ id, name, compare: 'atLeast', limit, shown });
const atMost = (id: string, name: string, limit: number, shown = `≤ ${limit}`): Budget => ({ id, name, compare: 'atMost', limit, shown });
const none = (id: string, name: string, shown: string): Budget => ({ id, name, compare: 'exactly', limit: 0, shown });
/** At most `limit` ms, shown in seconds. */
const atMostMs = (id: string, name: string, limit: number) => atMost(id, name, limit, `≤ ${(limit / 1000).toFixed(2)} s`);

/** The kinds of logo set the first load is measured with (bench/lib/logo-kinds.ts). */
export const LOGO_KINDS = ['small PNG', 'SVG', 'large PNG'] as const;
export const VOTING_PAGES = ['/', '/vote/:id', '/results/:id'] as const;
export const SHAPES = { spread: 'spread over many polls', onePoll: 'all on one poll' } as const;
export const PROBES = {
  session_view: { label: 'session view', p95Ms: 100 },
  my_vote: { label: 'my-vote', p95Ms: 100 },
  first_vote: { label: 'first vote', p95Ms: undefined },
  changed_vote: { label: 'changed vote', p95Ms: 150 },
  admin_page: { label: 'admin first page', p95Ms: 300 },
} as const;
export const POLL_KINDS = { standard: 'a poll', sharedNetwork: 'a poll created for a shared network' } as const;
export const OTHER_CATEGORIES = { accessibility: 'accessibility', 'best-practices': 'best practices', seo: 'SEO' } as const;
const median = 'median run';

/** In the order of the report's budget table. */
export const BUDGETS: Budget[] = [
  atLeast('votes.share', "Votes/s through the gateway with p95 < 100 ms, ÷ the reference's", 0.5),
  atLeast('logos.share', 'Logo requests/s through the gateway ÷ nginx static', 0.8),
  atMost('firstLoad.jsBytes', 'Voting page: JavaScript before the first logo, compressed', 150_000, '≤ 150.0 kB'),
  atMostMs('firstLoad.lcpMs', 'Voting page: Largest Contentful Paint, mobile profile (median)', 2000),
  atMostMs('creation.p95Ms', 'Poll creation with four logos of 2 MB, every moderation check included, p95', 1500),
  ...VOTING_PAGES.flatMap((page) => [
    atLeast(`lighthouse.${page}.performance`, `Lighthouse \`${page}\`: performance score, mobile (${median}), lowest level`, 100, '100'),
    atMostMs(`lighthouse.${page}.lcpMs`, `Lighthouse \`${page}\`: Largest Contentful Paint, mobile (${median}), highest level`, 1500),
  ]),
  ...Object.entries(OTHER_CATEGORIES).map(([category, name]) =>
    atLeast(`lighthouse.${category}`, `Lighthouse ${name} score, lowest page and level`, 100, '100'),
  ),
  ...['any', ...LOGO_KINDS].flatMap((kind) =>
    (kind === 'any' ? ['/'] : ['/vote/:id', '/results/:id']).flatMap((page) => [
      atLeast(`logoKinds.${kind}.${page}.performance`, `Lighthouse \`${page}\`, ${kind} logos: performance score, mobile (${median})`, 95),
      atMostMs(
        `logoKinds.${kind}.${page}.lcpMs`,
        `Lighthouse \`${page}\`, ${kind} logos: Largest Contentful Paint, mobile (${median})`,
        1500,
      ),
    ]),
  ),
  ...LOGO_KINDS.map((kind) =>
    atMostMs(`slowPhone.${kind}`, `Slow phone, ${kind} logos: the voting page's question and a usable Vote button (median)`, 3000),
  ),
  ...Object.entries(SHAPES).flatMap(([shape, title]) => [
    atLeast(`scale.${shape}.share`, `Voter flows through the gateway ${title} ÷ reference flows`, 0.5),
    none(`scale.${shape}.wrong`, `Voter flows ${title}: failed flows and logos counted wrong`, '0'),
    atMost(`scale.${shape}.commands`, `Database commands per voter flow, ${title}`, 6),
  ]),
  ...Object.entries(PROBES).flatMap(([path, { label, p95Ms }]) => [
    ...(p95Ms === undefined ? [] : [atMost(`probes.${path}.p95Ms`, `${label} p95 at 100 000 votes`, p95Ms, `≤ ${p95Ms} ms`)]),
    atMost(`probes.${path}.factor`, `${label} p95 at 1 000 000 votes ÷ at 100 000`, 3),
  ]),
  ...Object.entries(POLL_KINDS).map(([kind, name]) =>
    atMostMs(
      `pow.${kind}.phoneMs`,
      `Proof of work, ${name}: the 200th voter of one address waits, on a phone 4x slower than this machine (longest possible)`,
      3000,
    ),
  ),
  atLeast('pow.standard.scriptMs', `Proof of work, a poll: a script's CPU for 200 voters from one address (expected)`, 60_000, '≥ 60 s'),
  atMost('live.deliveryP95Ms', `Live results: a vote's counts on each of 1000 open streams through the gateway, p95`, 1000, '≤ 1000 ms'),
  none('live.undelivered', 'Live results: counts not delivered to an open stream', '0'),
  // The background work's reads move by a few a second between windows: two reads a vote are noise.
  atMost(
    'live.extraReadsPerVote',
    `Live results: database reads per vote with 1000 viewers, beyond those with 1`,
    2,
    '≤ 2 (independent of viewers)',
  ),
  none('counts.wrong', 'Counts after the storm: logos counted wrong and votes unanswered', '0 (exact)'),
  atMostMs('themes.cpuMs', 'Reason themes: 200 reasons summarised, the engine and its model loaded first (CPU)', 10_000),
];

/** A figure not measured (`null` in the data file, as JSON has no NaN) misses its budget. */
export function meets(budget: Budget, value: number | null): boolean {
  if (value === null || Number.isNaN(value)) return false;
  if (budget.compare === 'atLeast') return value >= budget.limit;
  if (budget.compare === 'atMost') return value <= budget.limit;
  return value === budget.limit;
}
