import { z } from 'zod';
import { PaymentPlan, SessionId } from './common';
import { Logo } from './sessions';

/** GET /api/admin/polls: one entry per poll. */
export const AdminPoll = z.object({
  pollId: SessionId,
  feedbackPrompt: z.string().nullable(),
  createdAt: z.iso.datetime(),
  totalVotes: z.number().int().nonnegative(),
  creatorEmail: z.string().nullable(),
  paymentPlan: PaymentPlan,
  logos: z.array(Logo),
});
export type AdminPoll = z.infer<typeof AdminPoll>;
export const AdminPollList = z.array(AdminPoll);
export type AdminPollList = z.infer<typeof AdminPollList>;

/** DELETE /api/admin/polls/{pollId}: what was removed (logos on the poll, vote rows, stored image objects). */
export const DeletedPoll = z.object({
  pollId: SessionId,
  deleted: z.object({ logos: z.number().int(), votes: z.number().int(), objects: z.number().int() }),
});
export type DeletedPoll = z.infer<typeof DeletedPoll>;
