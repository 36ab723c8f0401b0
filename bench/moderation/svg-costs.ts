// Measures what real logos cost to draw (the figures docs/moderation.md sets the SVG limits from): for each
// folder of SVG files or Iconify JSON icon set given, the largest element count, <use> count, reference depth
// and instance count, and which file has each. The sets are installed outside the repository, e.g.
//
//   mkdir /tmp/svgset && cd /tmp/svgset && npm install --ignore-scripts simple-icons@16.37.0 \
//     @iconify-json/logos@1.2.19 devicon@2.17.0 flag-icons@7.5.0
//   npx tsx bench/moderation/svg-costs.ts /tmp/svgset/node_modules/simple-icons/icons \
//     /tmp/svgset/node_modules/@iconify-json/logos/icons.json /tmp/svgset/node_modules/devicon/icons \
//     /tmp/svgset/node_modules/flag-icons/flags packages/media-pipeline/test/labelled tests/fixtures
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { SvgCosts } from '../../packages/media-pipeline/src/svg-costs';
import { checkSvg } from '../../packages/media-pipeline/src/svg-policy';

const out = (line: string) => process.stdout.write(`${line}\n`);

type Measured = { name: string; costs: SvgCosts; problems: string[]; ms: number };

function svgFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return svgFiles(path);
    return entry.endsWith('.svg') ? [path] : [];
  });
}

/** An Iconify icon set: each icon's body inside the <svg> element it is drawn in. */
function iconifyIcons(file: string): [string, string][] {
  const set = JSON.parse(readFileSync(file, 'utf8')) as {
    icons: Record<string, { body: string; width?: number; height?: number }>;
    width?: number;
    height?: number;
  };
  return Object.entries(set.icons).map(([name, icon]) => [
    name,
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 ${icon.width ?? set.width ?? 16} ${icon.height ?? set.height ?? 16}">${icon.body}</svg>`,
  ]);
}

function measure(name: string, text: string): Measured {
  const started = performance.now();
  const verdict = checkSvg(text);
  return { name, costs: verdict.costs, problems: [...verdict.problems, ...verdict.tooComplex], ms: performance.now() - started };
}

for (const source of process.argv.slice(2)) {
  const documents = source.endsWith('.json')
    ? iconifyIcons(source)
    : svgFiles(source).map((file): [string, string] => [file.slice(source.length + 1), readFileSync(file, 'utf8')]);
  const measured = documents.map(([name, text]) => measure(name, text));
  const largest = (key: keyof SvgCosts) =>
    measured.reduce((best, item) => (Number(item.costs[key]) > Number(best.costs[key]) ? item : best));
  out(`${source}: ${measured.length} SVGs`);
  for (const key of ['elements', 'uses', 'referenceDepth', 'instances'] as const) {
    const top = largest(key);
    out(`  most ${key}: ${top.costs[key]} (${top.name}: ${JSON.stringify(top.costs)})`);
  }
  out(
    `  cycles: ${
      measured
        .filter((item) => item.costs.cycle)
        .map((item) => item.name)
        .join(', ') || 'none'
    }`,
  );
  out(`  slowest check: ${Math.max(...measured.map((item) => item.ms)).toFixed(1)} ms`);
  for (const item of measured.filter((entry) => entry.problems.length > 0)) out(`  refused: ${item.name}: ${item.problems.join('; ')}`);
}
