import { z } from 'zod';
import { AttributeNames } from './attributes';
import { Channel, ChannelNames } from './channels';
import { PaymentPlan, SessionId } from './common';
import { MAX_FEEDBACK_PROMPT_LENGTH, MAX_LOGO_NAME_LENGTH, MAX_LOGOS_PER_POLL } from './limits';
import { LOGO_BACKDROPS } from './logo-backdrop';
import { LogoOrder, VoterOrderSeed } from './logo-order';
import { LogoFilename } from './media';
import { ResultsVisibility } from './results-visibility';
import { plainText } from './text';

/** Multipart field of POST /api/sessions that carries the logo files (repeated). */
export const LOGOS_FIELD = 'logos';
/** Beyond the spec: the multipart text field of POST /api/sessions that names the logos (repeated, in the files' order). */
export const LOGO_NAMES_FIELD = 'logoNames';

/** A logo of a poll; the image is served at /api/logos/{filename}. */
export const Logo = z.object({
  id: z.string(),
  filename: LogoFilename,
  originalName: z.string(),
  /** Beyond the spec: the creator's name for the logo, shown beside its 'Logo A' label (by default its file name without the extension). */
  name: z.string(),
  voteCount: z.number().int().nonnegative(),
  /** Beyond the spec: the backdrop the logo is shown on by default, from its pixels (docs/logo-backdrops.md). */
  backdrop: z.enum(LOGO_BACKDROPS),
});
export type Logo = z.infer<typeof Logo>;

/**
 * A logo's name as the creator writes it: one line of plain text; empty means the default (the file name
 * without its extension, defaultLogoName).
 */
export const LogoName = plainText('The logo name').max(
  MAX_LOGO_NAME_LENGTH,
  `The logo name must be at most ${MAX_LOGO_NAME_LENGTH} characters`,
);

/** Multipart text fields of POST /api/sessions (the files travel as repeated `logos`). */
export const CreateSessionFields = z.object({
  feedbackPrompt: plainText('The question', { multiline: true })
    .max(MAX_FEEDBACK_PROMPT_LENGTH, `feedbackPrompt must be at most ${MAX_FEEDBACK_PROMPT_LENGTH} characters`)
    .optional()
    .transform((value) => (value ? value : undefined)),
  /** Beyond the spec: 'shuffled' gives each voter an order of their own; without it the order is fixed. */
  logoOrder: LogoOrder.optional(),
  /**
   * Beyond the spec: the creator expects many voters behind one network address (an office, a school), so
   * more of them vote without a proof of work and the cost rises more gently (docs/api/votes-and-notify.md).
   */
  sharedNetwork: z.stringbool({ error: 'sharedNetwork must be true or false' }).optional(),
  /** Beyond the spec: the repeated `logoNames` field, one name per file in the same order, or none at all. */
  logoNames: z.array(LogoName).max(MAX_LOGOS_PER_POLL).optional(),
  /** Beyond the spec: who sees the results when (docs/results-visibility.md); without it, everyone at any time. */
  resultsVisibility: ResultsVisibility.optional(),
  /** Beyond the spec: the repeated `channels` field, one name per channel (docs/channels.md). */
  channels: ChannelNames.optional(),
  /** Beyond the spec: the repeated `attributes` field, one per attribute voters rate the logos on (docs/attributes.md). */
  attributes: AttributeNames.optional(),
});
export type CreateSessionFields = z.infer<typeof CreateSessionFields>;

/** GET /api/sessions/{sessionId}: the poll with current counts and a fresh anti-forgery token. */
export const SessionView = z.object({
  sessionId: SessionId,
  logos: z.array(Logo),
  feedbackPrompt: z.string().optional(),
  totalVotes: z.number().int().nonnegative(),
  csrfToken: z.string().optional(),
  /** Beyond the spec: present when each voter sees the logos in an order of their own. */
  logoOrder: LogoOrder.optional(),
  /** Beyond the spec: the logo ids in the order of the voter named by the lookup's `voter` (shuffled polls only). */
  voterOrder: z.array(z.string()).optional(),
  /** Beyond the spec: the poll's channels, each with its own voting link (docs/channels.md); absent when it has none. */
  channels: z.array(Channel).optional(),
  /** Beyond the spec: what voters are asked after their vote, one attribute each (docs/attributes.md); absent when none. */
  attributes: z.array(z.string()).optional(),
});
export type SessionView = z.infer<typeof SessionView>;

/** Query of GET /api/sessions/{sessionId}: optionally, whose order to answer in voterOrder (the gateway's first paint). */
export const SessionLookupQuery = z.object({ voter: VoterOrderSeed.optional() });
export type SessionLookupQuery = z.infer<typeof SessionLookupQuery>;

/** POST /api/sessions: 201 with the created session. */
export const CreatedSession = SessionView.extend({
  votingUrl: z.string(),
  resultsUrl: z.string(),
  csrfToken: z.string(),
});
export type CreatedSession = z.infer<typeof CreatedSession>;

/** PUT /api/sessions/{sessionId}/plan (JSON, with X-CSRF-Token): records the plan chosen in the creation dialog. */
export const SetPlanRequest = z.object({ paymentPlan: PaymentPlan });
export type SetPlanRequest = z.infer<typeof SetPlanRequest>;
export const SetPlanResponse = z.object({ sessionId: SessionId, paymentPlan: PaymentPlan });
export type SetPlanResponse = z.infer<typeof SetPlanResponse>;

/** The answer of every endpoint for a poll that does not exist (or no longer does). */
export const SESSION_NOT_FOUND = 'Voting session not found';

/** The answer to a creation whose `logoNames` do not pair up with its `logos`. */
export const logoNamesCountMismatch = (logos: number, names: number): string =>
  `logoNames: send one name per logo, in the order of the files (${logos} ${logos === 1 ? 'logo' : 'logos'}, ${names} ${names === 1 ? 'name' : 'names'})`;

/** Where a poll is voted on and its results are shown, on the public origin. */
export function pollLinks(publicOrigin: string, sessionId: string): { votingUrl: string; resultsUrl: string } {
  return { votingUrl: `${publicOrigin}/vote/${sessionId}`, resultsUrl: `${publicOrigin}/results/${sessionId}` };
}
