import { z } from 'zod';
import { ChannelResults } from './channels';
import { PaymentPlan, SessionId } from './common';
import { ADMIN_SEARCH_QUERY_MAX } from './limits';
import { ResultsVisibility } from './results-visibility';
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

/** How many polls a search answers at most. */
export const ADMIN_SEARCH_LIMIT = 50;
/** A search answer's header: 'true' when more polls match than it holds (a narrower search finds them). */
export const SEARCH_MORE_HEADER = 'X-More-Matches';

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
  /**
   * A search instead of the list (docs/admin.md, "Search"): polls whose question or logo names hold every
   * word (as the start of a word), or the poll with this id (also inside a pasted voting or results link);
   * at most ADMIN_SEARCH_LIMIT, newest first, in one answer. `before` and `limit` do not apply.
   */
  q: z
    .string()
    .trim()
    .min(1, 'Please type what to search for')
    .max(ADMIN_SEARCH_QUERY_MAX, `The search must be at most ${ADMIN_SEARCH_QUERY_MAX} characters`)
    .optional(),
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

/** How many of a logo's newest reasons the admin's details show. */
export const ADMIN_REASONS_PER_LOGO = 10;

/**
 * GET /api/admin/polls/{pollId}: the list's entry and what the admin needs to judge the poll: whether voting
 * is open, who sees its results, its channels' votes, its logos' newest reasons, and its public results page.
 */
export const AdminPollDetails = AdminPoll.extend({
  closed: z.boolean(),
  closedAt: z.iso.datetime().nullable(),
  resultsVisibility: ResultsVisibility,
  /** Null for a poll without channels. */
  channels: ChannelResults.nullable(),
  /** Per logo (upload order): its newest reasons (at most ADMIN_REASONS_PER_LOGO) and whether it has older ones. */
  reasons: z.array(
    z.object({
      logoId: z.string(),
      reasons: z.array(z.object({ reason: z.string(), at: z.iso.datetime() })),
      more: z.boolean(),
    }),
  ),
  resultsUrl: z.string(),
});
export type AdminPollDetails = z.infer<typeof AdminPollDetails>;
