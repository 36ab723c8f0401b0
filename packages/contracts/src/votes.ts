import { z } from 'zod';
import { SessionId } from './common';

/** GET /api/sessions/{sessionId}/my-vote */
export const MyVote = z.object({ hasVoted: z.boolean(), logoId: z.string().nullable() });
export type MyVote = z.infer<typeof MyVote>;

/** POST /api/sessions/{sessionId}/vote */
export const VoteRequest = z.object({
  logoId: z
    .string({ error: (issue) => (issue.input === undefined ? 'logoId is required' : 'logoId must be a string') })
    .min(1, 'logoId is required')
    .max(64, 'This logo is not part of this voting session'),
});
export type VoteRequest = z.infer<typeof VoteRequest>;
export const VoteResponse = z.object({ logoId: z.string() });
export type VoteResponse = z.infer<typeof VoteResponse>;

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
