/**
 * A browser that votes through the gateway as the voting page does, over plain HTTP from a chosen
 * loopback address (a network): its own cookie jar (anti-forgery cookie and voter passes) and its own
 * fingerprint. It can move to another address, or open a private window (same address and
 * fingerprint, no cookies).
 */
import type { MyVote, ProofRequired } from '@logovote/contracts';
import { call, targetOf, type Answer } from './http';

export interface BrowserVoter {
  readonly fingerprint: string;
  /** The address it votes from now. */
  address: string;
  /** Its cookies, as `name=value` pairs. */
  readonly cookies: Map<string, string>;
  myVote(): Promise<MyVote>;
  /** A vote, with the X-Vote-Proof header when given: the answer as it came. */
  vote(logoId: string, proof?: string): Promise<Answer>;
  /** A private window of this browser: same address and fingerprint, no cookies. */
  privateWindow(): BrowserVoter;
  /** This browser (its cookies, shared) on another address at the same time. */
  at(address: string): BrowserVoter;
}

export function browserVoter(
  gatewayUrl: string,
  sessionId: string,
  fingerprint: string,
  address: string,
  cookies = new Map<string, string>(),
): BrowserVoter {
  const cookieHeader = () => ({ Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') });
  const keep = (answer: Answer) => {
    for (const pair of (answer.headers['set-cookie'] ?? '').matchAll(/(lv_[a-z_]+)=([^;,\s]+)/g)) cookies.set(pair[1]!, pair[2]!);
    return answer;
  };
  const send = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    keep(
      await call(targetOf(gatewayUrl, voter.address), {
        method,
        path,
        headers: { ...cookieHeader(), ...headers },
        ...(body ? { body } : {}),
      }),
    );

  const voter: BrowserVoter = {
    fingerprint,
    address,
    cookies,
    async myVote() {
      const answer = await send('GET', `/api/sessions/${sessionId}/my-vote`, { 'X-Client-Fingerprint': fingerprint });
      if (answer.status !== 200) throw new Error(`my-vote answered ${answer.status}: ${answer.body}`);
      return JSON.parse(answer.body) as MyVote;
    },
    async vote(logoId, proof) {
      const session = await send('GET', `/api/sessions/${sessionId}`);
      if (session.status !== 200) throw new Error(`session lookup answered ${session.status}: ${session.body}`);
      const { csrfToken } = JSON.parse(session.body) as { csrfToken: string };
      return send(
        'POST',
        `/api/sessions/${sessionId}/vote`,
        {
          'Content-Type': 'application/json',
          'X-CSRF-Token': csrfToken,
          'X-Client-Fingerprint': fingerprint,
          ...(proof ? { 'X-Vote-Proof': proof } : {}),
        },
        JSON.stringify({ logoId }),
      );
    },
    privateWindow: () => browserVoter(gatewayUrl, sessionId, fingerprint, voter.address),
    at: (elsewhere) => browserVoter(gatewayUrl, sessionId, fingerprint, elsewhere, cookies),
  };
  return voter;
}

/** The challenge of a 428 answer. */
export function challengeIn(answer: Answer): ProofRequired['challenge'] {
  if (answer.status !== 428) throw new Error(`expected a proof-of-work challenge (428), got ${answer.status}: ${answer.body}`);
  return (JSON.parse(answer.body) as ProofRequired).challenge;
}
