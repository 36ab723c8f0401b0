import { z } from 'zod';
import { Channel } from './channels';
import { MAX_ATTRIBUTE_LENGTH, MAX_ATTRIBUTES_PER_POLL } from './limits';
import { plainText } from './text';

/**
 * Brief-fit ratings (docs/attributes.md): beyond the spec, a poll may ask its voters, after their vote, which
 * logo fits each of up to four attributes best, one forced choice per attribute, or "Can't say".
 */

/** Beyond the spec: the multipart text field of POST /api/sessions that names an attribute (repeated, one per attribute). */
export const ATTRIBUTES_FIELD = 'attributes';

export const AttributeName = plainText('The attribute')
  .min(1, 'The attribute must not be empty')
  .max(MAX_ATTRIBUTE_LENGTH, `The attribute must be at most ${MAX_ATTRIBUTE_LENGTH} characters`);

/** The attributes a creator names at creation: at most MAX_ATTRIBUTES_PER_POLL, no two alike in any letter case. */
export const AttributeNames = z
  .array(AttributeName)
  .max(MAX_ATTRIBUTES_PER_POLL, `A poll can ask about at most ${MAX_ATTRIBUTES_PER_POLL} attributes`)
  .refine((names) => new Set(names.map((name) => name.toLocaleLowerCase('en-US'))).size === names.length, {
    message: 'Each attribute needs a different name',
  });

/** The path's attribute: its position among the poll's attributes. */
export const AttributeIndex = z.coerce
  .number({ error: 'This attribute is not part of this voting session' })
  .int('This attribute is not part of this voting session')
  .min(0, 'This attribute is not part of this voting session')
  .max(MAX_ATTRIBUTES_PER_POLL - 1, 'This attribute is not part of this voting session');

/**
 * PUT /api/sessions/{sessionId}/attributes/{index}: the voter's answer, a logo of the poll, or null for
 * "Can't say". A later answer replaces it, as a changed vote does.
 */
export const AttributeAnswerRequest = z.object({
  logoId: z
    .string({ error: 'logoId must be a logo of this voting session or null' })
    .min(1, 'logoId must be a logo of this voting session or null')
    .max(64, 'This logo is not part of this voting session')
    .nullable(),
});
export type AttributeAnswerRequest = z.infer<typeof AttributeAnswerRequest>;
export const AttributeAnswerResponse = z.object({ attribute: z.number().int().nonnegative(), logoId: z.string().nullable() });
export type AttributeAnswerResponse = z.infer<typeof AttributeAnswerResponse>;

/** GET /api/sessions/{sessionId}/my-attributes: the visitor's current answers, one per attribute answered, in the poll's order. */
export const MyAttributeAnswers = z.object({ answers: z.array(AttributeAnswerResponse) });
export type MyAttributeAnswers = z.infer<typeof MyAttributeAnswers>;

export const ATTRIBUTE_MESSAGES = {
  noVote: 'Vote first: these questions come after your vote',
  noSuchAttribute: 'This attribute is not part of this voting session',
  noSuchLogo: 'This logo is not part of this voting session',
  busy: 'Your answers are being sent from another tab right now. Please try again.',
} as const;

/** One group's answers for one attribute: per logo (every logo of the poll, 0 when none), and "Can't say". */
export const AttributeCounts = z.object({
  logos: z.array(z.object({ logoId: z.string(), answers: z.number().int().nonnegative() })),
  cantSay: z.number().int().nonnegative(),
});
export type AttributeCounts = z.infer<typeof AttributeCounts>;

/**
 * GET /api/sessions/{sessionId}/attributes: each attribute's answers, in the creator's order; for the creator
 * of a poll with channels, also each channel's and the plain link's (`direct`).
 */
export const AttributeResults = z.object({
  attributes: z.array(
    AttributeCounts.extend({
      name: z.string(),
      channels: z.array(Channel.extend(AttributeCounts.shape)).optional(),
      direct: AttributeCounts.optional(),
    }),
  ),
});
export type AttributeResults = z.infer<typeof AttributeResults>;
