import { createHmac } from 'node:crypto';
import { VoteProof, type VoteChallenge } from '@logovote/contracts';
import { formatZodError } from '@logovote/service-kit';
import type * as AltchaLib from 'altcha-lib' with { 'resolution-mode': 'import' };
import type * as AltchaPbkdf2 from 'altcha-lib/algorithms/pbkdf2' with { 'resolution-mode': 'import' };
import { spendProof } from './models/spent-proof';

// altcha-lib declares its types for ESM only, but ships a CommonJS build too, which `require` loads.
/* eslint-disable @typescript-eslint/no-require-imports */
const { createChallenge, randomInt, verifySolution } = require('altcha-lib') as typeof AltchaLib;
const { deriveKey } = require('altcha-lib/algorithms/pbkdf2') as typeof AltchaPbkdf2;
/* eslint-enable @typescript-eslint/no-require-imports */

export interface ProofOfWorkOptions {
  /** Key material of the challenges' signatures (the service's IP_HASH_SALT, under labels of its own). */
  secret: string;
  iterations: number;
}

/** What a challenge of each level costs, in attempts on average: `attempts` at level 1, `attemptsPerLevel` more per level above. */
export interface ProofCost {
  attempts: number;
  attemptsPerLevel: number;
}

/** The attempts a challenge of `level` (1, 2, ...) takes on average. */
export function attemptsAt(cost: ProofCost, level: number): number {
  return cost.attempts + (level - 1) * cost.attemptsPerLevel;
}

/** A spent proof's level (0: its challenge expired), or why it was refused. */
export type SpentProof = { level: number } | { refused: 'invalid'; problems?: string } | { refused: 'spent' };

/** How long a challenge may be solved and sent: long enough for a slow phone, short enough not to be stockpiled. */
const CHALLENGE_LIFETIME_S = 10 * 60;
const ALGORITHM = 'PBKDF2/SHA-256';

export const PROOF_REQUIRED =
  'Many people have already voted in this poll from your network address. Your browser must solve a proof-of-work challenge before this vote counts: solve the challenge and send the vote again with the solution in the X-Vote-Proof header.';
export const PROOF_INVALID = 'The proof of work is not valid for this poll. Vote again to get a new challenge.';
export const PROOF_SPENT = 'This proof of work was already used. Vote again to get a new challenge.';
export const PROOF_LEVEL_FULL =
  'While this proof of work was being solved, other people on your network address took the seats it was for. Solve the new challenge and send the vote again with its solution in the X-Vote-Proof header.';

/**
 * Step-up proof of work for votes, with altcha-lib: a PBKDF2 challenge whose solution (the counter) the
 * service draws itself, uniformly below twice its level's attempts (attemptsAt), so a solve takes that
 * many derivations on average and never more than twice that. Uniform from 0 on purpose: a solver that
 * knows the range gains nothing by starting anywhere but 0 (a range starting higher would let it skip
 * the bottom). Challenges are HMAC-signed, carry the poll and the level they are for (./use-cases/cast-vote: the
 * seats a proof may take) and expire; a solution is spent on first use (./models/spent-proof).
 */
export function proofOfWork(options: ProofOfWorkOptions) {
  const label = (name: string) => createHmac('sha256', options.secret).update(`proof-of-work:${name}`).digest('hex');
  const hmacSignatureSecret = label('challenge');
  const hmacKeySignatureSecret = label('key');

  return {
    /** A new challenge of `level` for a vote in `pollId`, taking `attempts` on average. */
    async challengeFor(pollId: string, level: number, attempts: number): Promise<VoteChallenge> {
      const challenge = await createChallenge({
        algorithm: ALGORITHM,
        cost: options.iterations,
        counter: randomInt(2 * attempts - 1, 0),
        deriveKey,
        data: { pollId, level },
        expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_LIFETIME_S,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
      return challenge as VoteChallenge;
    },

    /**
     * Checks and spends the proof a vote carries (the X-Vote-Proof header): its level when it is a valid
     * solution of a challenge for this poll, 0 when its challenge expired (the vote then goes on as one
     * without proof); refused when forged or malformed ('invalid', with what is wrong with its shape when
     * that is known) or used before ('spent').
     */
    async spend(header: string, pollId: string): Promise<SpentProof> {
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
      } catch {
        return { refused: 'invalid' };
      }
      const parsed = VoteProof.safeParse(decoded);
      if (!parsed.success) return { refused: 'invalid', problems: formatZodError(parsed.error) };
      const proof = parsed.data;
      const { parameters } = proof.challenge;
      const level = parameters.data?.level;
      if (parameters.algorithm !== ALGORITHM || parameters.data?.pollId !== pollId || !Number.isSafeInteger(level) || Number(level) < 1)
        return { refused: 'invalid' };
      const result = await verifySolution({ ...proof, deriveKey, hmacSignatureSecret, hmacKeySignatureSecret });
      if (result.expired) return { level: 0 };
      if (!result.verified) return { refused: 'invalid' };
      if (!(await spendProof(parameters.nonce, pollId, new Date((parameters.expiresAt ?? 0) * 1000)))) return { refused: 'spent' };
      return { level: Number(level) };
    },
  };
}

export type ProofOfWork = ReturnType<typeof proofOfWork>;
