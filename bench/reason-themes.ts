// Measures the reason-themes engine (services/votes/src/reason-themes) on its labelled sets: themes
// recovered and their purity, quotes verbatim, the same output across runs and input orders, and the CPU
// time to summarise 200 reasons, cold (the engine and its model loaded first) and warm. Markdown on stdout;
// docs/reasons.md ("Themes: how they are found") carries its figures.
//
//   node --import tsx --conditions=source bench/reason-themes.ts
import { evaluate, loadLabelled, shuffled } from '../services/votes/test/reason-themes/evaluate';
import { measureReasonThemes } from './lib/reason-themes';

const out = (line = '') => process.stdout.write(`${line}\n`);
const row = (cells: (string | number)[]) => out(`| ${cells.join(' | ')} |`);
const yesNo = (value: boolean) => (value ? 'yes' : 'no');
const percent = (share: number) => `${Math.round(share * 100)} %`;

async function main(): Promise<void> {
  // First, so that its cold figure includes loading the engine and its model.
  const cpu = await measureReasonThemes();
  const { reasonThemes } = await import('../services/votes/src/reason-themes/index.js');

  for (const [title, file] of [
    ['Labelled set', 'labelled-reasons.json'],
    ['Held-out set', 'held-out-reasons.json'],
  ] as const) {
    const reasons = loadLabelled(file);
    const themes = reasonThemes(reasons);
    const expected = JSON.stringify(themes);
    const sameRuns = [1, 2, 3].every(() => JSON.stringify(reasonThemes(reasons)) === expected);
    const sameShuffled = [1, 2, 3, 4, 5].every((seed) => JSON.stringify(reasonThemes(shuffled(reasons, seed))) === expected);
    const { labelled: labels, themes: scores, recovered, themed, placed } = evaluate(reasons, themes);
    const pure = [...recovered.values()].filter((purity) => purity >= 0.7).length;
    out(`## ${title} (${reasons.length} reasons, ${labels.length} labelled themes and noise)`);
    out();
    row(['Output theme', 'Members', 'Majority label', 'Purity', 'Quotes verbatim']);
    row(['---', '---:', '---', '---:', '---']);
    for (const score of scores)
      row([score.label, score.count, score.majority ?? '(noise)', percent(score.purity), yesNo(score.quotesVerbatim)]);
    out();
    out(`- Labelled themes recovered: ${recovered.size} of ${labels.length}; at ≥ 70 % purity: ${pure} of ${labels.length}`);
    out(`- Not recovered: ${labels.filter((label) => !recovered.has(label)).join(', ') || 'none'}`);
    out(`- Labelled reasons placed in a theme of their own label: ${placed} of ${themed}`);
    out(`- Every quote verbatim: ${yesNo(scores.every((score) => score.quotesVerbatim))}`);
    out(`- Same output across 3 runs: ${yesNo(sameRuns)}; for 5 shuffled orders: ${yesNo(sameShuffled)}`);
    out();
  }

  out('## CPU time for 200 reasons');
  out();
  row(['Measure', 'CPU ms']);
  row(['---', '---:']);
  row(['Cold: engine, wink-nlp and its model loaded, then one summary', cpu.coldMs.toFixed(0)]);
  row([`Warm: median of ${cpu.warmRuns} summaries`, cpu.warmMedianMs.toFixed(1)]);
  row([`Warm: slowest of ${cpu.warmRuns}`, cpu.warmMaxMs.toFixed(1)]);
  row(['This machine: sorting 1 000 000 numbers (a fixed workload)', cpu.workloadMs.toFixed(0)]);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
