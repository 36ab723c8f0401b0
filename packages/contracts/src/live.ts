import type { z } from 'zod';
import { SessionView } from './sessions';

/**
 * GET /api/sessions/{sessionId}/live (text/event-stream, docs/live-results.md): each event's data is one
 * LiveCounts, the poll's logos with their counts and the total in the session view's shape, so a page
 * replaces those fields of the view it holds. The first event carries the counts at the time of opening.
 */
export const LiveCounts = SessionView.pick({ sessionId: true, logos: true, totalVotes: true });
export type LiveCounts = z.infer<typeof LiveCounts>;

/** How many live streams one client address may hold open at the gateway at once (its limit_conn). */
export const LIVE_STREAMS_PER_ADDRESS = 32;

/**
 * The named event a stream ends with when its poll stops being shown (hidden pending review, or deleted):
 * its data is one LiveEnded. The page then reads the poll again, which says why.
 */
export const LIVE_ENDED_EVENT = 'ended';
export const LiveEnded = SessionView.pick({ sessionId: true });
export type LiveEnded = z.infer<typeof LiveEnded>;

/**
 * The named event that says voters gave reasons for the poll (its data is one LiveReasonsGiven): the page
 * then reads the reasons again. It comes when a reason is stored, and once more when that second has ended.
 */
export const LIVE_REASONS_EVENT = 'reasons';
export const LiveReasonsGiven = SessionView.pick({ sessionId: true });
export type LiveReasonsGiven = z.infer<typeof LiveReasonsGiven>;
