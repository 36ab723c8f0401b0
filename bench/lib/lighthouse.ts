/**
 * Lighthouse (13.5.0, its default mobile config: simulated throttling at 150 ms RTT, 1.6 Mbps and a 4x slower CPU) on
 * Debian's Chromium, the median of a few runs per page by Lighthouse's own `computeMedianRun`. Lighthouse needs Node 22,
 * which scripts/install-infra.sh installs beside it: this module runs bench/lib/lighthouse-runs.mjs on that Node.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot, toolPath } from '@logovote/devstack';

export const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];

export interface LighthousePage {
  /** The page's path, as the report names it: `/vote/:id`. */
  label: string;
  url: string;
  /** Sent with every request of the page (Lighthouse's extra headers) as Basic credentials. */
  basicAuth?: { username: string; password: string };
}

export interface LighthouseSummary {
  label: string;
  url: string;
  lighthouseVersion: string;
  /** As Chromium names itself: `HeadlessChrome/156.0.8078.79`. */
  browserVersion: string;
  /** Lighthouse's measure of this machine's speed (its BenchmarkIndex): the simulation scales CPU work by it. */
  benchmarkIndex: number;
  /** 0 to 100, of the median run. */
  scores: Record<LighthouseCategory, number>;
  metrics: { lcpMs: number; fcpMs: number; tbtMs: number; cls: number };
  /** From the lcp-breakdown-insight audit, which replaced largest-contentful-paint-element in Lighthouse 13. */
  lcp: { element?: { selector: string; snippet: string; label: string }; partsMs: Record<string, number> };
  /** The scored audits under 1 in each category. */
  failing: Record<LighthouseCategory, { id: string; title: string; score: number }[]>;
  warnings: string[];
  /** Every run's performance score, LCP and TBT; `medianRun` indexes the one reported. */
  runs: { performance: number; lcpMs: number; tbtMs: number }[];
  medianRun: number;
  /** The codes of the runs Lighthouse could not complete, each run again (NO_NAVSTART, PROTOCOL_TIMEOUT, ...). */
  failedRuns: string[];
}

/** Runs Lighthouse `runs` times on each page, one Chromium at a time, and resolves with each page's median run. */
export function runLighthouse(options: { pages: LighthousePage[]; runs: number; reportDir?: string }): Promise<LighthouseSummary[]> {
  const request = { chromePath: toolPath('chromium'), ...options };
  const child = spawn(toolPath('lighthouse-node'), [join(repoRoot, 'bench', 'lib', 'lighthouse-runs.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stdin.end(JSON.stringify(request));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(JSON.parse(stdout) as LighthouseSummary[]);
      else reject(new Error(`Lighthouse failed (${signal ?? `exit code ${code}`}); its output is above`));
    });
  });
}

/** The LCP element as Lighthouse names it: its label and selector. */
export function lcpElementName(summary: LighthouseSummary): string {
  const element = summary.lcp.element;
  if (!element) return 'none found';
  return element.label && element.label !== element.selector ? `${element.label} (\`${element.selector}\`)` : `\`${element.selector}\``;
}
