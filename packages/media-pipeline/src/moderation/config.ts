import { ConfigError } from '@logovote/service-kit';
import { z } from 'zod';
import { svgEnv } from '../svg-costs';
import { BrandModeration } from './brands';
import { FACE_DETECTORS, FaceModeration } from './faces';
import { HostedModeration } from './hosted';
import { NsfwjsModeration } from './nsfwjs';
import { ModerationSuite, type ModerationCheck } from './suite';

/** Settings of the services that run the upload pipeline (the SVG cost limits among them). */
export const moderationEnv = svgEnv.extend({
  /**
   * local: the models in the process only (nudity, faces, brand names); http: those and a hosted
   * moderation API (OpenAI moderation protocol) for what no local model covers (violence, hate, ...).
   */
  MODERATION_PROVIDER: z.enum(['local', 'http']).default('local'),
  /** The nudity score (0..1) from which an image is refused. */
  MODERATION_THRESHOLD: z.coerce.number().min(0).max(1).default(0.7),
  /** on: logos with a photographic human face are refused (drawn and emoji faces pass). */
  MODERATION_FACES: z.enum(['on', 'off']).default('on'),
  MODERATION_FACES_DETECTOR: z.enum(FACE_DETECTORS).default('tiny_face_detector'),
  /** The face detector's confidence (0..1) from which a box counts as a face. */
  MODERATION_FACES_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  /** How photographic (0..1, docs/moderation.md) a face's pixels must be for the face to be refused. */
  MODERATION_FACES_MIN_PHOTOGRAPHIC: z.coerce.number().min(0).max(1).default(0.2),
  /** on: logos that read a well-known brand name (data/brand-names.txt) are refused as possibly impersonating. */
  MODERATION_BRANDS: z.enum(['on', 'off']).default('on'),
  /**
   * OCR worker threads for the brand check, each holding its own model (~55 MB). One by default: on two
   * cores a second one competes with the main thread's checks and did not make four logos at once faster
   * (docs/moderation.md).
   */
  MODERATION_OCR_WORKERS: z.coerce.number().int().min(1).max(8).default(1),
  MODERATION_URL: z.url().default('https://api.openai.com/v1/moderations'),
  MODERATION_API_KEY: z.string().optional(),
  MODERATION_MODEL: z.string().min(1).default('omni-moderation-latest'),
  MODERATION_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
});
export type ModerationSettings = z.infer<typeof moderationEnv>;

/** The checks the terms promise (docs/moderation.md), each loaded once per process. */
export function createModerationProvider(settings: ModerationSettings): ModerationSuite {
  const checks: ModerationCheck[] = [{ check: 'nudity', provider: new NsfwjsModeration({ threshold: settings.MODERATION_THRESHOLD }) }];
  if (settings.MODERATION_FACES === 'on') {
    const faces = new FaceModeration({
      detector: settings.MODERATION_FACES_DETECTOR,
      minScore: settings.MODERATION_FACES_MIN_SCORE,
      minPhotographic: settings.MODERATION_FACES_MIN_PHOTOGRAPHIC,
    });
    checks.push({ check: 'faces', provider: faces });
  }
  if (settings.MODERATION_BRANDS === 'on')
    checks.push({ check: 'brands', provider: new BrandModeration({ workers: settings.MODERATION_OCR_WORKERS }) });
  if (settings.MODERATION_PROVIDER === 'http') {
    if (!settings.MODERATION_API_KEY)
      throw new ConfigError('Invalid configuration:\n  MODERATION_API_KEY: required when MODERATION_PROVIDER=http');
    const hosted = new HostedModeration({
      url: settings.MODERATION_URL,
      apiKey: settings.MODERATION_API_KEY,
      model: settings.MODERATION_MODEL,
      timeoutMs: settings.MODERATION_TIMEOUT_MS,
    });
    checks.push({ check: 'hosted', provider: hosted });
  }
  return new ModerationSuite(checks);
}
