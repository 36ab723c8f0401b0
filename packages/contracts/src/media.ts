import { z } from 'zod';

/** POST /api/test/moderate */
export const ModerationResult = z.object({
  isValid: z.boolean(),
  reason: z.string(),
  rawResponse: z.unknown(),
});
export type ModerationResult = z.infer<typeof ModerationResult>;

/** Stored logo object names: random, with the extension of the real type. */
export const LogoFilename = z.string().regex(/^[A-Za-z0-9_-]{22}\.(png|jpg|svg|webp)$/, 'Invalid logo file name');
export type LogoFilename = z.infer<typeof LogoFilename>;
