// zod/mini: the moderation test page parses this in the browser, where classic zod would add its whole
// API to the page and compile parsers with new Function, which the Content-Security-Policy forbids.
import * as z from 'zod/mini';

/** One check's verdict in the moderation suite's raw response (docs/moderation.md): nudity, faces, brands, hosted. */
export const ModerationCheckVerdict = z.object({
  check: z.string(),
  isValid: z.boolean(),
  reason: z.string(),
  elapsedMs: z.optional(z.number()),
});
export type ModerationCheckVerdict = z.infer<typeof ModerationCheckVerdict>;

/** The part of a raw response (the verdict's, or a refusal's with its stage) that lists every check. */
export const ModerationChecks = z.object({ checks: z.array(ModerationCheckVerdict).check(z.minLength(1)) });
export type ModerationChecks = z.infer<typeof ModerationChecks>;
