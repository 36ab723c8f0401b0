/**
 * `npm run lighthouse -- --base http://127.0.0.1:8080 --paths /,/vote/<id>,/results/<id>,/admin/polls --admin user:pass`:
 * Lighthouse, as `npm run bench` runs it (bench/lib/lighthouse.ts), on the pages of a running stack (`npm start`),
 * one Chromium at a time, with a table of each page's median run. Options:
 *   --base URL        the gateway (default http://127.0.0.1:8080)
 *   --paths a,b,...   the pages (default /)
 *   --runs N          runs per page, the median reported (default 3)
 *   --admin user:pass the admin's Basic credentials, sent to the pages under /admin
 *   --reports DIR     also writes each page's median run as a Lighthouse HTML report
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureInfraInstalled } from '@logovote/devstack';
import { LIGHTHOUSE_CATEGORIES, lcpElementName, runLighthouse, type LighthousePage } from './lib/lighthouse';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:8080' },
    paths: { type: 'string', default: '/' },
    runs: { type: 'string', default: '3' },
    admin: { type: 'string' },
    reports: { type: 'string' },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not ${values.runs}`);
const [username = '', password = ''] = values.admin?.split(/:(.*)/s) ?? [];
const adminAuth = values.admin ? { username, password } : undefined;
const pages: LighthousePage[] = values.paths.split(',').map((path) => ({
  label: path,
  url: new URL(path, values.base).href,
  basicAuth: path.startsWith('/admin') ? adminAuth : undefined,
}));
const reportDir = values.reports ? resolve(values.reports) : undefined;
if (reportDir) mkdirSync(reportDir, { recursive: true });

const write = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main(): Promise<void> {
  ensureInfraInstalled(['lighthouse', 'chromium']);
  const summaries = await runLighthouse({ pages, runs, reportDir });
  const head = ['Page', 'Perf', 'LCP', 'FCP', 'TBT', 'CLS', 'A11y', 'BP', 'SEO', 'LCP element'];
  const rows = summaries.map((page) => [
    page.label,
    String(page.scores.performance),
    seconds(page.metrics.lcpMs),
    seconds(page.metrics.fcpMs),
    `${page.metrics.tbtMs.toFixed(0)} ms`,
    page.metrics.cls.toFixed(3),
    ...(['accessibility', 'best-practices', 'seo'] as const).map((category) => String(page.scores[category])),
    lcpElementName(page).replaceAll('`', ''),
  ]);
  const widths = head.map((_, column) => Math.max(...[head, ...rows].map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  write(`\nLighthouse ${summaries[0]?.lighthouseVersion ?? ''}, mobile, simulated throttling, median of ${runs} run(s) per page`);
  write(line(head));
  rows.forEach((row) => write(line(row)));
  for (const page of summaries) {
    write(`\n${page.label}`);
    write(
      `  runs (performance, LCP, TBT): ${page.runs.map((run, index) => `${run.performance} ${seconds(run.lcpMs)} ${run.tbtMs.toFixed(0)} ms${index === page.medianRun ? ' (median)' : ''}`).join('; ')}`,
    );
    const parts = Object.entries(page.lcp.partsMs).map(([part, ms]) => `${part} ${ms.toFixed(0)} ms`);
    if (parts.length > 0) write(`  LCP parts (unthrottled trace): ${parts.join(', ')}`);
    if (page.lcp.element?.snippet) write(`  LCP element: ${page.lcp.element.snippet}`);
    for (const category of LIGHTHOUSE_CATEGORIES) {
      for (const audit of page.failing[category]) write(`  ${category}: ${audit.id} (${audit.score}): ${audit.title}`);
    }
    for (const warning of page.warnings) write(`  warning: ${warning}`);
    if (page.failedRuns.length > 0) write(`  failed runs, each run again: ${page.failedRuns.join(', ')}`);
  }
  if (reportDir) write(`\nHTML reports of the median runs: ${reportDir}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`[lighthouse] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
