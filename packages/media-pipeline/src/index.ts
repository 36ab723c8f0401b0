// @logovote/media-pipeline: the checks every uploaded image passes, shared by poll creation and the moderation test.
export { multipartUpload, receivedUpload, type MultipartOptions, type ReceivedUpload, type UploadedFile } from './multipart';
export { createUploadPipeline, type InspectedImage, type UploadPipeline, type UploadPipelineOptions } from './pipeline';
export { SvgTooComplex, UploadRejected, type UploadStage } from './errors';
export { IMAGE_FORMATS, contentTypeOfFilename, sniffImageFormat, type FormatInfo, type ImageFormat } from './formats';
export { checkSvg, type SvgVerdict } from './svg-policy';
export { DEFAULT_SVG_SETTINGS, svgEnv, type SvgCosts, type SvgSettings } from './svg-costs';
export { SvgRenderTimeout, SvgRenderer, svgRenderer } from './svg-render';
export {
  ModerationUnavailable,
  MODERATION_UNAVAILABLE,
  warmUpModeration,
  type ModerationImage,
  type ModerationProvider,
  type ModerationVerdict,
} from './moderation/provider';
export { NsfwjsModeration, type NsfwjsOptions, type ModelTimings } from './moderation/nsfwjs';
export { BrandModeration, type BrandModerationOptions } from './moderation/brands';
export {
  BrandMatcher,
  brandKey,
  loadBrandList,
  parseBrandList,
  type BrandMatch,
  type BrandName,
  type ReadWord,
} from './moderation/brand-names';
export {
  FaceModeration,
  FACE_DETECTORS,
  photographicMeasure,
  type FaceBox,
  type FaceDetectorName,
  type FaceModerationOptions,
  type PhotographicMeasure,
} from './moderation/faces';
export { HostedModeration, type HostedModerationOptions } from './moderation/hosted';
export { ModerationSuite, type CheckVerdict, type ModerationCheck } from './moderation/suite';
export { moderationEnv, createModerationProvider, type ModerationSettings } from './moderation/config';
export { LOGO_NOT_FOUND, requestedLogoName, sendLogoObject } from './logo-response';
export { renderLinkPreview, DEFAULT_PREVIEW_TITLE, type PreviewLogo } from './link-preview';
