import Router from '@koa/router';
import { MAX_LOGO_BYTES, MODERATION_IMAGE_FIELD, type ModerationResult } from '@logovote/contracts';
import { SvgTooComplex, UploadRejected, multipartUpload, receivedUpload, type UploadPipeline } from '@logovote/media-pipeline';
import { HttpError, type UploadRateLimits } from '@logovote/service-kit';

export const NO_IMAGE = 'Please select an image to test moderation';

/**
 * POST /api/test/moderate: runs one image through the same pipeline as poll creation (type from the
 * bytes, decoding with the pixel limit, SVG policy, moderation) and reports the verdict instead of
 * storing anything. A refused image is a 200 with isValid false; only a request the pipeline cannot
 * judge (no file, too large, an SVG too complex to draw, moderation down) is an error.
 */
export function moderationRouter(pipeline: UploadPipeline, uploadRate: UploadRateLimits): Router {
  const router = new Router();

  router.post(
    '/api/test/moderate',
    multipartUpload({
      fileField: MODERATION_IMAGE_FIELD,
      maxFiles: 1,
      maxFileBytes: MAX_LOGO_BYTES,
      textFields: [],
      maxFieldBytes: 0,
      tooManyFilesMessage: 'Send one image at a time',
      uploadRate,
    }),
    async (ctx) => {
      const [file] = receivedUpload(ctx).files;
      if (!file) throw new HttpError(400, NO_IMAGE);
      let body: ModerationResult;
      try {
        const image = await pipeline.inspect(file);
        body = { isValid: true, reason: image.moderation.reason, rawResponse: image.moderation.rawResponse };
      } catch (error: unknown) {
        if (!(error instanceof UploadRejected) || error instanceof SvgTooComplex) throw error;
        body = { isValid: false, reason: error.message, rawResponse: { stage: error.stage, ...(error.details as object) } };
      }
      ctx.set('Cache-Control', 'no-store');
      ctx.body = body;
    },
  );

  return router;
}
