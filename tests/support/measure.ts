/** Timing helpers of the opt-in measurements in the integration suites (LOGOVOTE_MEASURE_*). */

/** The value at percentile `p` (0 to 100) of `values`, to 0.1. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN).toFixed(1));
};

export const summary = (values: number[]) => ({ n: values.length, p50Ms: percentile(values, 50), p95Ms: percentile(values, 95) });

/** What `run` resolves to, and the milliseconds it took. */
export async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const result = await run();
  return [result, performance.now() - start];
}
