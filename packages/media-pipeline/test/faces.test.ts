import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import {
  FaceModeration,
  UploadRejected,
  createModerationProvider,
  createUploadPipeline,
  moderationEnv,
  type CheckVerdict,
  type InspectedImage,
} from '../src';
import { folderImages, type LabelledImage } from './labelled/categories';

// The real models (nsfwjs and the face detector on TensorFlow.js's WebAssembly backend), loaded once for the file.
jest.setTimeout(60_000);
const suite = createModerationProvider(moderationEnv.parse({}));
const pipeline = createUploadPipeline({ moderation: suite });
const dir = mkdtempSync(join(tmpdir(), 'faces-test-'));

/** The pipeline's verdict on a labelled image: the inspected image, or the refusal. */
async function inspect({ name, bytes }: LabelledImage): Promise<InspectedImage | UploadRejected> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return pipeline
    .inspect({ originalName: name, declaredType: 'application/octet-stream', path, size: bytes.length })
    .catch((error: unknown) => {
      if (error instanceof UploadRejected) return error;
      throw error;
    });
}

const facesVerdict = (rawResponse: unknown) => (rawResponse as { checks: CheckVerdict[] }).checks.find((check) => check.check === 'faces');

describe('the faces check', () => {
  beforeAll(() => suite.warmUp(), 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is part of the suite the services build, after nudity', () => {
    expect(suite.checks.map((check) => check.check)).toEqual(['nudity', 'faces']);
  });

  it('refuses at least 90 % of the labelled photographic faces, naming the faces check', async () => {
    const faces = folderImages('faces');
    expect(faces.length).toBeGreaterThanOrEqual(10);
    const refused: string[] = [];
    for (const image of faces) {
      const verdict = await inspect(image);
      if (verdict instanceof UploadRejected) {
        expect(verdict.status).toBe(422);
        expect(verdict.message).toMatch(
          new RegExp(`^"${image.name}" was rejected by content moderation: .*A photographic human face was found \\(score \\d+%\\)`),
        );
        expect(verdict.details).toMatchObject({ refusedBy: expect.arrayContaining(['faces']) });
        refused.push(image.name);
      }
    }
    expect(refused.length / faces.length).toBeGreaterThanOrEqual(0.9);
  });

  it.each(folderImages('plain').map((image) => [image.name, image] as const))(
    'lets the plain logo %s through every check',
    async (_name, image) => {
      const verdict = await inspect(image);
      expect(verdict).not.toBeInstanceOf(UploadRejected);
    },
  );

  it('passes a drawn face and an emoji face, saying why, with the detector evidence in the raw response', async () => {
    for (const name of ['drawn-cartoon-person.svg', 'emoji-woman-red-hair.svg']) {
      const [image] = folderImages('plain', (file) => file === name);
      const verdict = await inspect(image!);
      expect(verdict).not.toBeInstanceOf(UploadRejected);
      const faces = facesVerdict((verdict as InspectedImage).moderation.rawResponse);
      expect(faces).toMatchObject({
        provider: 'face-api',
        isValid: true,
        reason: expect.stringMatching(/^(Only drawn faces found|No human face found)$/),
      });
      expect(faces?.rawResponse).toMatchObject({ detector: 'tiny_face_detector', faces: expect.any(Array), elapsedMs: expect.any(Number) });
    }
  });

  it('loads the detector once, however often it is warmed up or asked', async () => {
    const load = jest.spyOn(faceapi.TinyFaceDetector.prototype, 'loadFromDisk');
    try {
      const settings = moderationEnv.parse({});
      const provider = new FaceModeration({
        detector: 'tiny_face_detector',
        minScore: settings.MODERATION_FACES_MIN_SCORE,
        minPhotographic: settings.MODERATION_FACES_MIN_PHOTOGRAPHIC,
      });
      await Promise.all([provider.warmUp(), provider.warmUp()]);
      const blank = { data: Buffer.alloc(32 * 32 * 3, 255), width: 32, height: 32 };
      await Promise.all([provider.moderate(blank), provider.moderate(blank)]);
      await provider.warmUp();
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      load.mockRestore();
    }
  });
});
