/**
 * A script's solver of the votes service's proof-of-work challenges: altcha-lib's own loop with Node's
 * native PBKDF2 (OpenSSL), one core. The tests use it as a stuffing script would; the bench times it.
 */
import type { VoteChallenge } from '@logovote/contracts';
import type * as AltchaLib from 'altcha-lib' with { 'resolution-mode': 'import' };
import type * as AltchaPbkdf2 from 'altcha-lib/algorithms/pbkdf2' with { 'resolution-mode': 'import' };

// altcha-lib declares its types for ESM only, but ships a CommonJS build too, which `require` loads.
/* eslint-disable @typescript-eslint/no-require-imports */
const { solveChallenge } = require('altcha-lib') as typeof AltchaLib;
const { deriveKey } = require('altcha-lib/algorithms/pbkdf2') as typeof AltchaPbkdf2;
/* eslint-enable @typescript-eslint/no-require-imports */

/** The X-Vote-Proof value for a challenge: base64 of { challenge, solution }. */
export async function solveVoteChallenge(challenge: VoteChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the proof-of-work challenge was not solved in time');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
