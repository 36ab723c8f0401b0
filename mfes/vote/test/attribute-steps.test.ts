import { freshOrders, stepAfter } from '../src/attribute-steps';

/** A generator that plays back `values` in turn. */
const playback = (values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('the attribute questions after a vote', () => {
  it('gives each question an order of its own, every logo once', () => {
    const orders = freshOrders(['a', 'b', 'c'], 2, playback([0, 0, 0.99, 0.99]));
    expect(orders).toEqual([
      ['b', 'c', 'a'],
      ['a', 'b', 'c'],
    ]);
  });

  it('puts each logo first about equally often', () => {
    const first = new Map<string, number>();
    for (const [order] of freshOrders(['a', 'b', 'c', 'd'], 4000)) first.set(order![0]!, (first.get(order![0]!) ?? 0) + 1);
    for (const logo of ['a', 'b', 'c', 'd']) expect(first.get(logo)).toBeGreaterThan(800);
  });

  it('leaves the logos it was given as they were', () => {
    const logos = ['a', 'b', 'c'];
    freshOrders(logos, 3);
    expect(logos).toEqual(['a', 'b', 'c']);
  });

  it('goes on to the next question, and is done after the last', () => {
    expect(stepAfter(0, 3)).toEqual({ question: 1 });
    expect(stepAfter(2, 3)).toEqual({ done: 'answered' });
    expect(stepAfter(0, 1)).toEqual({ done: 'answered' });
  });
});
