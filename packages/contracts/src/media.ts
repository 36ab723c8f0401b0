import { z } from 'zod';

/** Multipart field of POST /api/test/moderate. */
export const MODERATION_IMAGE_FIELD = 'image';

/** POST /api/test/moderate: the verdict of the upload pipeline the poll creation uses. */
export const ModerationResult = z.object({
  isValid: z.boolean(),
  reason: z.string(),
  rawResponse: z.unknown(),
});
export type ModerationResult = z.infer<typeof ModerationResult>;

/** Stored logo object names: 22 random base64url characters and the extension of the real type. */
export const LogoFilename = z.string().regex(/^[A-Za-z0-9_-]{22}\.(png|jpg|svg|webp)$/, 'Invalid logo file name');
export type LogoFilename = z.infer<typeof LogoFilename>;
