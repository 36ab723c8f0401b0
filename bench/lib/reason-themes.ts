/**
 * The CPU time of the reason-themes engine (services/votes/src/reason-themes) on 200 reasons built from its
 * labelled set: cold (the engine, wink-nlp and its model loaded first) and warm, with a fixed JS workload's
 * time beside it for the machine's own speed.
 */
import type { ReasonForThemes } from '../../services/votes/src/reason-themes';
import { loadLabelled } from '../../services/votes/test/reason-themes/evaluate';

const WARM_RUNS = 20;

export interface ReasonThemesCpu {
  coldMs: number;
  warmMedianMs: number;
  warmMaxMs: number;
  warmRuns: number;
  /** Sorting 1 000 000 numbers on this machine. */
  workloadMs: number;
}

/** CPU milliseconds (user + system, every thread) since `before`. */
function cpuMsSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** CPU milliseconds that `work` takes. */
function cpuMs(work: () => unknown): number {
  const before = process.cpuUsage();
  work();
  return cpuMsSince(before);
}

/** 200 reasons: the labelled set as written, then its reasons joined in pairs ("cosy; easy to read"). */
function twoHundredReasons(): ReasonForThemes[] {
  const reasons = loadLabelled('labelled-reasons.json');
  return Array.from({ length: 200 }, (_, index) => {
    const first = reasons[index % reasons.length]!;
    const second = reasons[(index * 7 + 3) % reasons.length]!;
    return { name: `x${index}`, text: index < reasons.length ? first.text : `${first.text}; ${second.text}` };
  });
}

/** A fixed JS workload, for the machine's own speed: the figures above scale with it. */
function fixedWorkload(): number {
  let state = 1;
  const numbers = Array.from({ length: 1_000_000 }, () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0));
  return numbers.sort((a, b) => a - b)[500_000]!;
}

export async function measureReasonThemes(): Promise<ReasonThemesCpu> {
  const reasons = twoHundredReasons();
  // Imported here, so that the cold figure includes loading the engine and its model.
  const coldStart = process.cpuUsage();
  const { reasonThemes } = await import('../../services/votes/src/reason-themes/index.js');
  reasonThemes(reasons);
  const coldMs = cpuMsSince(coldStart);
  const warm = Array.from({ length: WARM_RUNS }, () => cpuMs(() => reasonThemes(reasons))).sort((a, b) => a - b);
  return {
    coldMs,
    warmMedianMs: warm[Math.floor(WARM_RUNS / 2)]!,
    warmMaxMs: warm[WARM_RUNS - 1]!,
    warmRuns: WARM_RUNS,
    workloadMs: cpuMs(fixedWorkload),
  };
}
