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
  photographicMeasure,
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

describe('the photographic measure', () => {
  const side = 64;
  const image = (pixel: (x: number, y: number) => number) => {
    const data = Buffer.alloc(side * side * 3);
    for (let y = 0; y < side; y += 1) for (let x = 0; x < side; x += 1) data.fill(pixel(x, y), (y * side + x) * 3, (y * side + x) * 3 + 3);
    return { data, width: side, height: side };
  };
  const whole = { x: 0, y: 0, width: side, height: side };

  it('finds no texture in a flat fill or a smooth gradient, as in drawings', () => {
    expect(
      photographicMeasure(
        image(() => 200),
        whole,
      ),
    ).toEqual({ texture: 0, smooth: 1, photographic: 0 });
    expect(
      photographicMeasure(
        image((x) => x * 4),
        whole,
      ).photographic,
    ).toBe(0);
  });

  it('finds texture nearly everywhere in fine noise, as in photographs', () => {
    // A fixed pseudo-random pattern of small brightness changes around mid-grey.
    const noise = image((x, y) => 128 + (((x * 7919 + y * 104729) % 17) - 8));
    expect(photographicMeasure(noise, whole).photographic).toBeGreaterThan(0.5);
  });

  it('measures only inside the image when the box reaches past its edges', () => {
    expect(
      photographicMeasure(
        image(() => 90),
        { x: -20, y: 40, width: 200, height: 200 },
      ).photographic,
    ).toBe(0);
    expect(
      photographicMeasure(
        image(() => 90),
        { x: 70, y: 70, width: 10, height: 10 },
      ),
    ).toEqual({ texture: 0, smooth: 1, photographic: 0 });
  });
});

describe('the faces check', () => {
  beforeAll(() => suite.warmUp(), 120_000);
  afterAll(async () => {
    await suite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is part of the suite the services build', () => {
    expect(suite.checks.map((check) => check.check)).toEqual(expect.arrayContaining(['nudity', 'faces']));
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
