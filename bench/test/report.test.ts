import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUDGETS } from '../lib/budgets';
import { renderReport, type PerformanceData } from '../lib/report';

const docs = join(__dirname, '..', '..', 'docs');
const data = JSON.parse(readFileSync(join(docs, 'performance.json'), 'utf8')) as PerformanceData;

/** Markdown without table cells' padding and runs of blank lines: prettier (which runs in ESM only) adds and removes them. */
const unpadded = (markdown: string) =>
  markdown
    .replace(/^\|.*$/gm, (row) => row.replace(/ *\| */g, '|').replace(/-{3,}/g, '---'))
    .replace(/\n{3,}/g, '\n\n')
    .trim();

describe('docs/performance.md', () => {
  it('is what the renderer makes of docs/performance.json (but for the padding prettier adds)', () => {
    expect(unpadded(renderReport(data))).toBe(unpadded(readFileSync(join(docs, 'performance.md'), 'utf8')));
  });

  it('has a figure for every budget, so that a budget renamed on one side only is not left out of the table', () => {
    expect(BUDGETS.map(({ id }) => id).filter((id) => !(id in data.figures))).toEqual([]);
  });
});
