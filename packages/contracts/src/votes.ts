import { z } from 'zod';
import { ChannelId } from './channels';
import { SessionId } from './common';

/** GET /api/sessions/{sessionId}/my-vote */
export const MyVote = z.object({
  hasVoted: z.boolean(),
  logoId: z.string().nullable(),
  /** Beyond the spec: the reason this visitor gave for the current vote, as stored (docs/reasons.md); absent when none. */
  reason: z.string().optional(),
});
export type MyVote = z.infer<typeof MyVote>;

/** POST /api/sessions/{sessionId}/vote */
export const VoteRequest = z.object({
  logoId: z
    .string({ error: (issue) => (issue.input === undefined ? 'logoId is required' : 'logoId must be a string') })
    .min(1, 'logoId is required')
    .max(64, 'This logo is not part of this voting session'),
  /**
   * Beyond the spec: the channel of the link the voter first arrived through (docs/channels.md). It counts
   * with the voter's first vote only; later votes keep the first one's channel.
   */
  via: ChannelId.optional(),
});
export type VoteRequest = z.infer<typeof VoteRequest>;
export const VoteResponse = z.object({ logoId: z.string() });
export type VoteResponse = z.infer<typeof VoteResponse>;

/**
 * A proof-of-work challenge (altcha-lib v2, PBKDF2, deterministic counter), signed by the votes service
 * and bound to one poll and one level (`data`: { pollId, level }): a vote that brings one more voter from
 * an address than a household would is answered 428 with one, and counts once it is sent again with the
 * challenge solved (VoteProof). The more voters an address already brought, the higher the level and
 * the cost; a proof may take a seat of its level or below only.
 */
export const VoteChallenge = z.object({
  parameters: z.object({
    algorithm: z.string().max(32),
    nonce: z.string().max(64),
    salt: z.string().max(64),
    cost: z.number().int().positive(),
    keyLength: z.number().int().positive().max(64),
    keyPrefix: z.string().max(128),
    keySignature: z.string().max(128).optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string().max(32), z.union([z.string().max(128), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string().max(128),
});
export type VoteChallenge = z.infer<typeof VoteChallenge>;
/**
 * The 428 answer to a vote that needs a proof of work: the challenge, its level (1 for the first voters
 * of an address who pay) and the attempts it takes on average (at most twice as many).
 */
export const ProofRequired = z.object({
  message: z.string(),
  level: z.number().int().positive(),
  attempts: z.number().int().positive(),
  challenge: VoteChallenge,
});
export type ProofRequired = z.infer<typeof ProofRequired>;
/** A solved challenge, as the X-Vote-Proof header carries it (base64 of this JSON). */
export const VoteProof = z.object({
  challenge: VoteChallenge,
  solution: z.object({ counter: z.number().int().min(0), derivedKey: z.string().max(128), time: z.number().optional() }),
});
export type VoteProof = z.infer<typeof VoteProof>;

/** Fingerprint test tool (spec section 2, /test/fingerprint): kept apart from real polls. */
export const TestSession = z.object({ sessionId: SessionId });
export type TestSession = z.infer<typeof TestSession>;
/** `testData` is whatever the tool reports about the browser; the body may be left out. */
export const TestVoteRequest = z.object({ testData: z.unknown().optional() }).default({});
export type TestVoteRequest = z.infer<typeof TestVoteRequest>;
export const TestVoteRecord = z.object({
  id: z.string(),
  sessionId: z.string(),
  voterFingerprint: z.string(),
  createdAt: z.string(),
});
export type TestVoteRecord = z.infer<typeof TestVoteRecord>;
export const TestVoteList = z.array(TestVoteRecord);
export type TestVoteList = z.infer<typeof TestVoteList>;
