import type { Logo } from './sessions';

/**
 * What ranking needs of a logo (the contracts' Logo, or anything with its vote count), given in upload order
 * (the session view's order, the same for everyone): ties keep it, so every viewer and every export labels
 * tied logos alike. A voter's own shuffled order (docs/fair-order.md) must never be passed here.
 */
export type CountedLogo = { voteCount: number };

/**
 * The results' ranking (spec sections 2 and 4), shared by the results page and the voting page of a closed
 * poll (docs/closing.md), so both name and crown the same logos.
 */
export type RankedLogo<T extends CountedLogo = Logo> = {
  logo: T;
  /** 'Logo A', 'Logo B', ... in ranking order. */
  label: string;
  /** Share of all votes, rounded to a whole number; 0 when nobody has voted. */
  percent: number;
  /** The first logo, only when it has at least one vote (spec section 4). */
  isWinner: boolean;
};

/** 'A' to 'Z', then 'AA', 'AB', ... (a poll has at most 4 logos; this never runs out anyway). */
export function letterLabel(position: number): string {
  let label = '';
  for (let n = position + 1; n > 0; n = Math.floor((n - 1) / 26)) label = String.fromCharCode(65 + ((n - 1) % 26)) + label;
  return label;
}

/** Spec sections 2 and 4: sorted by votes, most first (ties keep the upload order), labelled, with percentages and the winner. */
export function rankLogos<T extends CountedLogo>(logos: readonly T[], totalVotes: number): RankedLogo<T>[] {
  return [...logos]
    .sort((a, b) => b.voteCount - a.voteCount)
    .map((logo, position) => ({
      logo,
      label: `Logo ${letterLabel(position)}`,
      percent: totalVotes > 0 ? Math.round((logo.voteCount / totalVotes) * 100) : 0,
      isWinner: position === 0 && logo.voteCount > 0,
    }));
}

/** 'Logo A · Wordmark': the spec's label with the creator's name of the logo beside it (alt texts and accessible names). */
export const labelWithName = (label: string, name: string) => `${label} · ${name}`;

/** 'N vote(s)': singular only for exactly 1. */
export const votesText = (count: number) => `${count} ${count === 1 ? 'vote' : 'votes'}`;

/** The group of the voters who came through a poll's plain link, beside its channels (docs/channels.md). */
export const DIRECT_LINK_GROUP = 'Other / direct link';

/** A logo's standing within one group of voters (a channel, docs/channels.md). */
export type GroupStanding<T extends CountedLogo = Logo> = { logo: T; label: string; votes: number; percent: number };

/**
 * One group's votes ranked: most first, ties in the poll's ranking order. Each logo keeps its label from the
 * poll's ranking (`ranked`), so 'Logo B' names the same logo in every group and in the total.
 */
export function rankGroup<T extends CountedLogo>(ranked: readonly RankedLogo<T>[], votesOf: (logo: T) => number): GroupStanding<T>[] {
  const total = ranked.reduce((sum, { logo }) => sum + votesOf(logo), 0);
  return ranked
    .map(({ logo, label }) => ({ logo, label, votes: votesOf(logo), percent: total > 0 ? Math.round((votesOf(logo) / total) * 100) : 0 }))
    .sort((a, b) => b.votes - a.votes);
}
