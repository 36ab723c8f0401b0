import { z } from 'zod';

/**
 * The admin's review: the uploads refused at poll creation, kept this many days without their
 * images (docs/moderation.md).
 */
export const REFUSAL_RETENTION_DAYS = 30;

/** The upload pipeline's checks, in the order a file meets them: which one refused it. */
export const UPLOAD_STAGES = ['type', 'svg', 'decode', 'dimensions', 'moderation'] as const;
export const UploadStage = z.enum(UPLOAD_STAGES);
export type UploadStage = z.infer<typeof UploadStage>;

/** A refusal's id: when it was recorded (milliseconds, 13 digits) and 8 random hex digits, so ids sort by time. */
export const RefusalId = z.string().regex(/^\d{13}-[0-9a-f]{8}$/, 'Invalid refusal id');
export type RefusalId = z.infer<typeof RefusalId>;

/**
 * One check's verdict on a refused upload, as kept: what it looked for, whether it passed, and why (the
 * fields of moderation-checks.ts's verdict, in classic zod like the rest of the admin contracts).
 */
export const RefusalCheck = z.object({ check: z.string(), isValid: z.boolean(), reason: z.string() });
export type RefusalCheck = z.infer<typeof RefusalCheck>;

/** GET /api/admin/refusals: one upload refused at poll creation (never its image). */
export const UploadRefusal = z.object({
  refusalId: RefusalId,
  at: z.iso.datetime(),
  /** The file's name as the browser sent it (reduced to a plain name). */
  fileName: z.string(),
  /** The type the browser declared (the pipeline reads the bytes, not this). */
  declaredType: z.string(),
  size: z.number().int().nonnegative(),
  stage: UploadStage,
  /** The creation's answer: 415 (not an accepted type) or 422. */
  status: z.number().int(),
  /** The message the creator was shown. */
  message: z.string(),
  /** Moderation only: the checks that refused the file (e.g. nudity, faces, brands, hosted). */
  refusedBy: z.array(z.string()).optional(),
  /** Moderation only: every check's verdict and reason. */
  checks: z.array(RefusalCheck).optional(),
});
export type UploadRefusal = z.infer<typeof UploadRefusal>;
export const UploadRefusalList = z.array(UploadRefusal);
export type UploadRefusalList = z.infer<typeof UploadRefusalList>;

/** How many refusals one page of GET /api/admin/refusals holds unless `limit` says otherwise, and at most. */
export const REFUSALS_PAGE = 20;
export const REFUSALS_PAGE_MAX = 100;

/**
 * GET /api/admin/refusals?before=&limit=: a page of the refusals of the last REFUSAL_RETENTION_DAYS
 * days, newest first. `before` is the cursor the previous page's `Link: <…>; rel="next"` header carries.
 */
export const AdminRefusalsQuery = z.object({
  before: RefusalId.optional(),
  limit: z.coerce.number().int().min(1).max(REFUSALS_PAGE_MAX).default(REFUSALS_PAGE),
});
export type AdminRefusalsQuery = z.infer<typeof AdminRefusalsQuery>;
