/**
 * The attribute questions after a vote (docs/attributes.md, "Answering"): each question shows the logos in
 * an order of its own, so the logo first on screen is not the one that gets the taps. The orders are drawn
 * once per visit with the platform's randomness: nothing needs them again, and a fixed order per voter (the
 * vote's own seed) would put the same logo first in every question.
 */
export function freshOrders<T>(items: readonly T[], questions: number, random: () => number = Math.random): T[][] {
  return Array.from({ length: questions }, () => {
    const order = [...items];
    for (let last = order.length - 1; last > 0; last--) {
      const pick = Math.floor(random() * (last + 1));
      [order[last], order[pick]] = [order[pick]!, order[last]!];
    }
    return order;
  });
}

/** Where the voter is: at a question (0-based), or past them all (answered, or skipped). */
export type AttributeStep = { question: number } | { done: 'answered' | 'skipped' };

/** The step after a question was answered: the next question, or done after the last. */
export const stepAfter = (question: number, questions: number): AttributeStep =>
  question + 1 < questions ? { question: question + 1 } : { done: 'answered' };
