// Measures the moderation suite on the labelled set (packages/media-pipeline/test/labelled): every image of
// every category goes through the upload pipeline's inspect() with the suite the services build, and the
// report (Markdown, on stdout) gives per category and check the share refused, and the time moderation adds
// to an upload. docs/moderation.md carries its figures.
//
//   npm run moderation:eval                      # the default settings (moderationEnv's defaults)
//   MODERATION_FACES_DETECTOR=ssd_mobilenetv1 npm run moderation:eval -- --runs 5
//
// MODERATION_* variables of the environment override the defaults; --runs N inspects each image N times
// (the verdicts come from the first run, the timings from all).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_LOGOS_PER_POLL } from '@logovote/contracts';
import {
  ModerationSuite,
  UploadRejected,
  createModerationProvider,
  createUploadPipeline,
  moderationEnv,
  type UploadPipeline,
} from '@logovote/media-pipeline';
import {
  LABELLED_CATEGORIES,
  collect,
  type LabelledCategory,
  type LabelledImage,
} from '../packages/media-pipeline/test/labelled/categories';
import { percentile } from './lib/stats';

interface Outcome {
  image: string;
  refusedBy: string[];
  /** The suite's own elapsedMs. */
  suiteMs: number;
  /** The whole inspect(): sniffing, decoding, the preview and moderation. */
  inspectMs: number;
  /** The CPU time that inspect() took on every thread: what a busy machine does not inflate. */
  inspectCpuMs: number;
}

interface SuiteResponse {
  refusedBy: string[];
  elapsedMs: number;
}

const percent = (count: number, total: number) => `${count}/${total} (${total === 0 ? '-' : Math.round((count / total) * 100)} %)`;
const out = (line = '') => process.stdout.write(`${line}\n`);
const row = (cells: (string | number)[]) => out(`| ${cells.join(' | ')} |`);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' } } });
  const runs = Math.max(1, Number(values.runs));
  const settings = moderationEnv.parse(Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MODERATION_'))));
  const suite = createModerationProvider(settings);
  const pipeline = createUploadPipeline({ moderation: suite });
  const loadStarted = performance.now();
  await suite.warmUp();
  const loadMs = Math.round(performance.now() - loadStarted);
  const checkNames = suite.checks.map((check) => check.check);
  // Inside the suite the checks interleave on the one main thread, so each check's own elapsedMs there
  // includes the others' work: a check's time is measured with the check alone (the same loaded model).
  const alone = suite.checks.map((check) => ({
    check: check.check,
    pipeline: createUploadPipeline({ moderation: new ModerationSuite([check]) }),
  }));
  const dir = mkdtempSync(join(tmpdir(), 'moderation-eval-'));
  let uploads = 0;

  async function inspect(name: string, bytes: Buffer, through: UploadPipeline = pipeline): Promise<Outcome> {
    const path = join(dir, String((uploads += 1)));
    writeFileSync(path, bytes);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    let response: SuiteResponse;
    try {
      const image = await through.inspect({ originalName: name, declaredType: 'application/octet-stream', path, size: bytes.length });
      response = image.moderation.rawResponse as SuiteResponse;
    } catch (error: unknown) {
      if (!(error instanceof UploadRejected) || error.stage !== 'moderation') throw error;
      response = error.details as SuiteResponse;
    }
    return {
      image: name,
      refusedBy: response.refusedBy,
      suiteMs: response.elapsedMs,
      inspectMs: performance.now() - started,
      inspectCpuMs: ((cpu) => (cpu.user + cpu.system) / 1000)(process.cpuUsage(cpuBefore)),
    };
  }

  const results: { category: LabelledCategory; outcomes: Outcome[] }[] = [];
  const timings: Outcome[] = [];
  const checkMs = new Map<string, number[]>(checkNames.map((check) => [check, []]));
  /** Four logos inspected at once, as one poll creation does: the wall time of the four together. */
  const creationMs: number[] = [];
  try {
    const everyImage: LabelledImage[] = [];
    for (const category of LABELLED_CATEGORIES) {
      const outcomes: Outcome[] = [];
      for (const { name, bytes } of await collect(category)) {
        everyImage.push({ name, bytes });
        for (let run = 0; run < runs; run += 1) {
          const outcome = await inspect(name, bytes);
          if (run === 0) outcomes.push(outcome);
          timings.push(outcome);
          for (const { check, pipeline: checkAlone } of alone) checkMs.get(check)?.push((await inspect(name, bytes, checkAlone)).suiteMs);
        }
      }
      results.push({ category, outcomes });
    }
    for (let first = 0; first + MAX_LOGOS_PER_POLL <= everyImage.length; first += MAX_LOGOS_PER_POLL) {
      for (let run = 0; run < runs; run += 1) {
        const started = performance.now();
        await Promise.all(everyImage.slice(first, first + MAX_LOGOS_PER_POLL).map(({ name, bytes }) => inspect(name, bytes)));
        creationMs.push(performance.now() - started);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  out(`### Verdicts on the labelled set`);
  out();
  out(`Checks: ${checkNames.join(', ')} (${suite.name}); settings: ${JSON.stringify(settingsShown(settings))}.`);
  out('A refusing category counts true positives of its check; a passing one counts false positives of every check.');
  out();
  row(['category', 'expected', 'images', ...checkNames.map((check) => `refused by ${check}`), 'right verdict']);
  row(['---', '---', '---:', ...checkNames.map(() => '---:'), '---:']);
  for (const { category, outcomes } of results) {
    const refusedBy = (check: string) => outcomes.filter((outcome) => outcome.refusedBy.includes(check)).length;
    const label = (check: string) => (category.expected === 'pass' ? 'FP ' : check === category.check ? 'TP ' : '');
    const right = outcomes.filter((outcome) =>
      category.expected === 'pass' ? outcome.refusedBy.length === 0 : outcome.refusedBy.includes(category.check ?? ''),
    ).length;
    row([
      category.name,
      category.expected === 'pass' ? 'pass' : `refused by ${category.check}`,
      outcomes.length,
      ...checkNames.map((check) => `${label(check)}${percent(refusedBy(check), outcomes.length)}`),
      percent(right, outcomes.length),
    ]);
  }
  const wrong = results.flatMap(({ category, outcomes }) =>
    outcomes
      .filter((outcome) =>
        category.expected === 'pass' ? outcome.refusedBy.length > 0 : !outcome.refusedBy.includes(category.check ?? ''),
      )
      .map((outcome) => `${category.name}: ${outcome.image} (refused by ${outcome.refusedBy.join(', ') || 'none'})`),
  );
  out();
  out(wrong.length === 0 ? 'Every image got the expected verdict.' : `Wrong verdicts: ${wrong.join('; ')}.`);
  out();
  out(`### Time moderation adds to an upload`);
  out();
  out(`${timings.length} inspections (${runs} per image), one at a time; the models' load: ${loadMs} ms once per process.`);
  out(`A check alone: the same image through a suite of that check only. Load average (1 min) at the end: ${loadavg()[0]?.toFixed(1)}.`);
  out();
  row(['what', 'p50 ms', 'p95 ms', 'max ms']);
  row(['---', '---:', '---:', '---:']);
  const timingRow = (what: string, samples: number[]) =>
    row([what, Math.round(percentile(samples, 0.5)), Math.round(percentile(samples, 0.95)), Math.round(Math.max(...samples))]);
  timingRow(
    'the moderation suite (every check)',
    timings.map((outcome) => outcome.suiteMs),
  );
  for (const check of checkNames) timingRow(`check alone: ${check}`, checkMs.get(check) ?? []);
  timingRow(
    'the whole inspect (decode, preview, suite)',
    timings.map((outcome) => outcome.inspectMs),
  );
  timingRow(
    'CPU time of the whole inspect (every thread)',
    timings.map((outcome) => outcome.inspectCpuMs),
  );
  timingRow(`${MAX_LOGOS_PER_POLL} logos inspected at once (a poll creation's checks)`, creationMs);
  // The OCR worker threads would keep the process alive.
  await suite.close();
}

/** The settings that shape the verdicts (no API key). */
function settingsShown(settings: ReturnType<typeof moderationEnv.parse>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).filter(([name]) => !/URL|API_KEY|TIMEOUT|MODEL$/.test(name)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
