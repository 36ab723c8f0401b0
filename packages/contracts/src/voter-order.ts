// An ambient module declaration reaches every consumer (services, remotes, tests) only through a reference.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./seedrandom-alea.d.ts" />
import alea from 'seedrandom/lib/alea';

/*
 * Free of zod and of the other contracts, so the voting page imports it on its own
 * ('@logovote/contracts/voter-order') without the schemas.
 */

/** The cookie the gateway keeps a browser's order seed in (Path=/vote, readable by the page). */
export const VOTER_ORDER_COOKIE = 'lv_order';

/**
 * The ids of a poll's logos in the order one voter sees them: a Fisher-Yates shuffle driven by a
 * generator seeded with the voter's seed and the poll (written here: the one shuffle package worth
 * taking, fast-shuffle, types itself as an ES module that the services' CommonJS cannot import). The same seed always gives the same order for a
 * poll (the voter's order is stable across visits), while every order is equally likely across seeds.
 * The server (for the page's first paint) and the browser compute it alike: the generator is plain
 * JavaScript (Alea), not the platform's randomness.
 */
export function voterLogoOrder(pollId: string, seed: string, logoIds: readonly string[]): string[] {
  const next = alea(`${seed}:${pollId}`);
  const order = [...logoIds];
  for (let last = order.length - 1; last > 0; last--) {
    const pick = Math.floor(next() * (last + 1));
    [order[last], order[pick]] = [order[pick]!, order[last]!];
  }
  return order;
}
