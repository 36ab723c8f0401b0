import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, toolPath } from '@logovote/devstack';

/** k6's end-of-test summary (handleSummary data): each metric's values (trends have percentiles, counters count and rate). */
export interface K6Summary {
  metrics: Record<string, { values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> } | undefined>;
}

export interface K6Run {
  script: string;
  summary: K6Summary;
  /** The thresholds that were crossed, as `metric: expression`. */
  crossed: string[];
  logFile: string;
}

export interface K6Options {
  /** Script path relative to bench/k6. */
  script: string;
  env: Record<string, string>;
  /** k6 --local-ips: each VU sends from its own loopback address. */
  localIps?: string;
  /** Where the summary and k6's own output are written (created if missing). */
  outDir: string;
}

/**
 * The `index`-th loopback address of 127.<block>.0.0/16 (0: 127.<block>.0.1): Linux routes all of 127/8 to the loopback
 * interface, so any of them can be a source address without configuration.
 */
export const loopbackAddress = (block: number, index: number) => `127.${block}.${Math.floor((index + 1) / 256)}.${(index + 1) % 256}`;

/** The first `count` loopback addresses of 127.<block>.0.0/16, for k6 --local-ips. */
export function loopbackRange(block: number, count: number): string {
  if (count > 65_535) throw new Error(`127.${block}.0.0/16 has no ${count} addresses after .0.0`);
  return `${loopbackAddress(block, 0)}-${loopbackAddress(block, count - 1)}`;
}

export function runK6(options: K6Options): Promise<K6Run> {
  const name = options.script.replace(/\.js$/, '');
  const summaryFile = join(options.outDir, `${name}.summary.json`);
  const logFile = join(options.outDir, `${name}.log`);
  const args = ['run', '--no-usage-report', '--quiet', '--no-color'];
  if (options.localIps) args.push('--local-ips', options.localIps);
  for (const [key, value] of Object.entries({ ...options.env, SUMMARY_FILE: summaryFile })) args.push('-e', `${key}=${value}`);
  args.push(join(repoRoot, 'bench', 'k6', options.script));
  mkdirSync(options.outDir, { recursive: true });
  const fd = openSync(logFile, 'w');
  return new Promise<K6Run>((resolve, reject) => {
    const child = spawn(toolPath('k6'), args, { cwd: repoRoot, stdio: ['ignore', fd, fd] });
    child.on('error', reject);
    child.on('exit', (code) => {
      closeSync(fd);
      if (!existsSync(summaryFile)) {
        reject(
          new Error(`k6 ${options.script} wrote no summary (exit ${code}); see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`),
        );
        return;
      }
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as K6Summary;
      const crossed = Object.entries(summary.metrics).flatMap(([metric, value]) =>
        Object.entries(value?.thresholds ?? {})
          .filter(([, result]) => !result.ok)
          .map(([expression]) => `${metric}: ${expression}`),
      );
      resolve({ script: options.script, summary, crossed, logFile });
    });
  });
}

/** A value of a metric of the summary, or NaN when the metric (or submetric) did not record anything. */
export function metricValue(run: K6Run, metric: string, stat: string): number {
  return run.summary.metrics[metric]?.values[stat] ?? Number.NaN;
}
