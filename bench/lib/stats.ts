/** The bench's summaries of measured values. */

/** The middle value (the upper one of an even count); NaN for none. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The nearest-rank percentile `share` (0..1) of `values`; NaN for none. */
export const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(share * values.length) - 1)] ?? Number.NaN;
