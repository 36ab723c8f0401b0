/**
 * docs/performance.md from a bench's data file (bench/lib/figures.ts) and the budgets (bench/lib/budgets.ts): the
 * budget table with each verdict, every table of the data as Markdown, the prose from bench/report.md (Mustache).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'mustache';
import { BUDGETS, meets } from './budgets';

/** The bench's data file, docs/performance.json: every figure of a run, formatted by bench/lib/figures.ts. */
export interface PerformanceData {
  /** Budgeted figures by their budget's id: the value compared (null when not measured) and the Measured cell. */
  figures: Record<string, { value: number | null; measured: string }>;
  /** The other figures the prose quotes. */
  text: Record<string, string>;
  /** Each table, its header row first. */
  tables: Record<string, string[][]>;
}

const TEMPLATE = join(__dirname, '..', 'report.md');

const markdownTable = ([header, ...rows]: string[][]) =>
  [header!, header!.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

/** `{ 'storm.share': x }` as `{ storm: { share: x } }`, the shape Mustache's dotted names look up. */
function nested(text: Record<string, string>) {
  const view: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(text)) {
    const path = key.split('.');
    const parent = path.slice(0, -1).reduce((at, part) => (at[part] ??= {}) as Record<string, unknown>, view);
    parent[path.at(-1)!] = value;
  }
  return view;
}

export function renderReport(data: PerformanceData): string {
  const budgets = BUDGETS.flatMap((budget) => {
    const figure = data.figures[budget.id];
    return figure ? [{ ...budget, measured: figure.measured, met: meets(budget, figure.value) }] : [];
  });
  // A table of one header row has nothing to show: absent, so that the template leaves its part out.
  const tables = Object.fromEntries(
    Object.entries(data.tables).flatMap(([name, rows]) => (rows.length > 1 ? [[name, markdownTable(rows)]] : [])),
  );
  return render(
    readFileSync(TEMPLATE, 'utf8'),
    { ...nested(data.text), tables, budgets, missed: budgets.filter((budget) => !budget.met) },
    {},
    { escape: String },
  );
}
