import { createHash } from 'node:crypto';

import { voterLogoOrder } from '../src/voter-order';

const LOGOS = ['logo-a', 'logo-b', 'logo-c', 'logo-d'];
/** Seeds as the gateway makes them (32 hexadecimal characters), but reproducible. */
const seed = (n: number) => createHash('sha256').update(String(n)).digest('hex').slice(0, 32);

describe("a voter's order of a poll's logos", () => {
  it('is a permutation of the logos, and the same every time for one voter and poll', () => {
    const order = voterLogoOrder('poll-1', seed(1), LOGOS);
    expect([...order].sort()).toEqual(LOGOS);
    expect(voterLogoOrder('poll-1', seed(1), LOGOS)).toEqual(order);
    expect(LOGOS).toEqual(['logo-a', 'logo-b', 'logo-c', 'logo-d']);
  });

  it('does not change between releases: browsers and the gateway must agree on every stored seed', () => {
    // Pinned: a dependency update that changed these would reorder every voter's logos mid-poll.
    expect(voterLogoOrder('DUziB1jy23GoRY6g', '0123456789abcdef0123456789abcdef', LOGOS)).toEqual(['logo-d', 'logo-c', 'logo-b', 'logo-a']);
    expect(voterLogoOrder('DUziB1jy23GoRY6h', '0123456789abcdef0123456789abcdef', LOGOS)).toEqual(['logo-d', 'logo-a', 'logo-c', 'logo-b']);
    expect(voterLogoOrder('DUziB1jy23GoRY6g', '0000000000000002', LOGOS.slice(0, 2))).toEqual(['logo-b', 'logo-a']);
  });

  it('differs between voters and between polls', () => {
    const orders = new Set(Array.from({ length: 50 }, (_, n) => voterLogoOrder('poll-1', seed(n), LOGOS).join()));
    expect(orders.size).toBeGreaterThan(10);
    const polls = new Set(Array.from({ length: 50 }, (_, n) => voterLogoOrder(`poll-${n}`, seed(1), LOGOS).join()));
    expect(polls.size).toBeGreaterThan(10);
  });

  it.each([2, 3, 4])('puts each of %i logos first for an equal share of voters, and gives every order', (count) => {
    const logos = LOGOS.slice(0, count);
    const voters = 24_000;
    const first = new Map<string, number>();
    const orders = new Set<string>();
    for (let n = 0; n < voters; n++) {
      const order = voterLogoOrder('poll-1', seed(n), logos);
      first.set(order[0]!, (first.get(order[0]!) ?? 0) + 1);
      orders.add(order.join());
    }
    // The seeds are fixed, so this is a fixed check, not a chance one: each share within 1.5 points of fair.
    for (const logo of logos) expect(Math.abs((first.get(logo) ?? 0) / voters - 1 / count)).toBeLessThan(0.015);
    expect(orders.size).toBe([1, 1, 2, 6, 24][count]);
  });

  it('keeps a single logo as it is', () => {
    expect(voterLogoOrder('poll-1', seed(1), ['only'])).toEqual(['only']);
  });
});
