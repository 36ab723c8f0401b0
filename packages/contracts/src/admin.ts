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
  /** Beyond the spec: present (true) only while the poll is hidden pending review; its images are then read at /api/admin/logos/{filename}. */
  hidden: z.literal(true).optional(),
});
export type AdminPoll = z.infer<typeof AdminPoll>;
export const AdminPollList = z.array(AdminPoll);
export type AdminPollList = z.infer<typeof AdminPollList>;

/** How many polls one page of GET /api/admin/polls holds unless `limit` says otherwise, and at most. */
export const ADMIN_POLLS_PAGE = 20;
export const ADMIN_POLLS_PAGE_MAX = 100;

/**
 * GET /api/admin/polls?before=&limit=: a page of the list, newest first. `before` is the cursor the
 * previous page's `Link: <…>; rel="next"` header carries; the body stays the spec's array.
 */
export const AdminPollsQuery = z.object({
  before: z.coerce.number().int().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_POLLS_PAGE_MAX).default(ADMIN_POLLS_PAGE),
});
export type AdminPollsQuery = z.infer<typeof AdminPollsQuery>;
/** Every page carries the number of polls in the whole list. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** DELETE /api/admin/polls/{pollId}: what was removed (logos on the poll, votes counted, stored image objects). */
export const DeletedPoll = z.object({
  pollId: SessionId,
  deleted: z.object({ logos: z.number().int(), votes: z.number().int(), objects: z.number().int() }),
});
export type DeletedPoll = z.infer<typeof DeletedPoll>;
