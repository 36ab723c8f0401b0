// seedrandom's Alea generator on its own (its main entry would bundle every algorithm and Node's crypto).
declare module 'seedrandom/lib/alea' {
  /** A generator of numbers in [0, 1) seeded by `seed`. */
  export default function alea(seed: string): () => number;
}
