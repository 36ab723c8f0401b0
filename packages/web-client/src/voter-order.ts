import type { SessionView } from '@logovote/contracts';
import { VOTER_ORDER_COOKIE, voterLogoOrder } from '@logovote/contracts/voter-order';

const SEED_COOKIE = new RegExp(`(?:^|;\\s*)${VOTER_ORDER_COOKIE}=([0-9a-f]{32})(?:;|$)`);

/** This browser's order seed: the cookie the gateway sets with the first page it serves (docs/fair-order.md). */
export function voterOrderCookie(): string | undefined {
  return typeof document === 'undefined' ? undefined : SEED_COOKIE.exec(document.cookie)?.[1];
}

/**
 * The poll as this voter is shown it: a shuffled poll's logos in the voter's own order, the same on every
 * visit and the same the gateway's first paint showed (both use the gateway's cookie). Without that cookie
 * (cookies refused) the fingerprint seeds the order instead: still the voter's own and stable, but the first
 * paint may then have shown another logo first. A poll in the fixed order is returned as it is.
 */
export function inVoterOrder(poll: SessionView, fingerprint: string | undefined): SessionView {
  if (poll.logoOrder !== 'shuffled') return poll;
  const seed = voterOrderCookie() ?? fingerprint ?? '';
  const byId = new Map(poll.logos.map((logo) => [logo.id, logo]));
  const logos = voterLogoOrder(poll.sessionId, seed, [...byId.keys()]).flatMap((id) => byId.get(id) ?? []);
  return { ...poll, logos };
}
