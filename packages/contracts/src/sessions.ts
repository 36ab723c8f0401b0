import { z } from 'zod';
import { PaymentPlan, SessionId } from './common';
import { MAX_FEEDBACK_PROMPT_LENGTH } from './limits';

/** A logo of a poll; the image is served at /api/logos/{filename}. */
export const Logo = z.object({
  id: z.string(),
  filename: z.string(),
  originalName: z.string(),
  voteCount: z.number().int().nonnegative(),
});
export type Logo = z.infer<typeof Logo>;

/** Multipart text fields of POST /api/sessions (the files travel as repeated `logos`). */
export const CreateSessionFields = z.object({
  feedbackPrompt: z
    .string()
    .trim()
    .max(MAX_FEEDBACK_PROMPT_LENGTH, `feedbackPrompt must be at most ${MAX_FEEDBACK_PROMPT_LENGTH} characters`)
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type CreateSessionFields = z.infer<typeof CreateSessionFields>;

/** GET /api/sessions/{sessionId}: the poll with current counts and a fresh anti-forgery token. */
export const SessionView = z.object({
  sessionId: SessionId,
  logos: z.array(Logo),
  feedbackPrompt: z.string().optional(),
  totalVotes: z.number().int().nonnegative(),
  csrfToken: z.string().optional(),
});
export type SessionView = z.infer<typeof SessionView>;

/** POST /api/sessions: 201 with the created session. */
export const CreatedSession = SessionView.extend({
  votingUrl: z.string(),
  resultsUrl: z.string(),
  csrfToken: z.string(),
});
export type CreatedSession = z.infer<typeof CreatedSession>;

/** PUT /api/sessions/{sessionId}/plan: records the plan chosen in the creation dialog. */
export const SetPlanRequest = z.object({ paymentPlan: PaymentPlan });
export type SetPlanRequest = z.infer<typeof SetPlanRequest>;
export const SetPlanResponse = z.object({ sessionId: SessionId, paymentPlan: PaymentPlan });
export type SetPlanResponse = z.infer<typeof SetPlanResponse>;
