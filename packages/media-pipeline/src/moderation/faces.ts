import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
// The node-wasm build requires '@tensorflow/tfjs' and '@tensorflow/tfjs-backend-wasm' (no bundled copy),
// so it runs on the one tfjs instance and WebAssembly backend nsfwjs uses.
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import { ModerationUnavailable, type ModerationImage, type ModerationProvider, type ModerationVerdict } from './provider';

/** The two face detectors whose weights @vladmandic/face-api ships (docs/moderation.md compares them). */
export const FACE_DETECTORS = ['tiny_face_detector', 'ssd_mobilenetv1'] as const;
export type FaceDetectorName = (typeof FACE_DETECTORS)[number];

export interface FaceModerationOptions {
  detector: FaceDetectorName;
  /** Detector confidence (0..1) from which a box counts as a face. */
  minScore: number;
  /** Photographic measure (0..1) from which a detected face counts as a photograph rather than a drawing. */
  minPhotographic: number;
}

/**
 * Tiny Face Detector looks at the preview twice: scaled to 416 pixels it finds small faces, scaled to 224
 * it finds the faces that fill the logo (tight crops), which it misses at 416 (docs/moderation.md).
 */
const TINY_INPUT_SIZES = [416, 224];
/** Two boxes overlapping more than this (intersection over union) are the same face found twice. */
const SAME_FACE_IOU = 0.5;
/** Below this confidence a box is not even reported in the raw response. */
const REPORTED_SCORE = 0.3;

const MODEL_DIR = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');

type Detector = faceapi.TinyFaceDetector | faceapi.SsdMobilenetv1;

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What sets a photograph apart from a drawing inside a face box (0..1 each). */
export interface PhotographicMeasure {
  /** Share of pixels with fine texture: small, non-zero brightness changes (skin, hair, sensor noise). */
  texture: number;
  /** Share of pixels in flat fills or smooth gradients: what drawings and emoji are made of. */
  smooth: number;
  /** The measure compared with minPhotographic. */
  photographic: number;
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * How photographic the pixels inside a face box are. Drawn faces and emoji are flat fills or smooth
 * gradients with sharp outlines: the discrete Laplacian of their brightness is 0 (or nearly) almost
 * everywhere and large on the outlines. A photograph has fine texture nearly everywhere, so most of
 * its pixels have a small non-zero Laplacian. Counting those pixels tells the two apart whatever the
 * colours (greyscale photographs included) and the face's size.
 */
export function photographicMeasure(image: ModerationImage, box: FaceBox): PhotographicMeasure {
  const left = Math.max(1, Math.floor(box.x));
  const top = Math.max(1, Math.floor(box.y));
  const right = Math.min(image.width - 1, Math.ceil(box.x + box.width));
  const bottom = Math.min(image.height - 1, Math.ceil(box.y + box.height));
  const luma = (x: number, y: number) => {
    const offset = (y * image.width + x) * 3;
    return 0.299 * image.data[offset]! + 0.587 * image.data[offset + 1]! + 0.114 * image.data[offset + 2]!;
  };
  let pixels = 0;
  let textured = 0;
  let smooth = 0;
  for (let y = top; y < bottom; y += 1) {
    for (let x = left; x < right; x += 1) {
      const laplacian = Math.abs(4 * luma(x, y) - luma(x - 1, y) - luma(x + 1, y) - luma(x, y - 1) - luma(x, y + 1));
      pixels += 1;
      if (laplacian < 1.5) smooth += 1;
      else if (laplacian < 24) textured += 1;
    }
  }
  if (pixels === 0) return { texture: 0, smooth: 1, photographic: 0 };
  return { texture: round(textured / pixels), smooth: round(smooth / pixels), photographic: round(textured / pixels) };
}

/** The detections, best first, without those that repeat a better one's face. */
function distinctFaces(detections: faceapi.FaceDetection[]): faceapi.FaceDetection[] {
  const kept: faceapi.FaceDetection[] = [];
  for (const detection of [...detections].sort((a, b) => b.score - a.score)) {
    if (kept.every((face) => overlap(face.box, detection.box) <= SAME_FACE_IOU)) kept.push(detection);
  }
  return kept;
}

/** Intersection over union of two boxes. */
function overlap(a: FaceBox, b: FaceBox): number {
  const width = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const height = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const intersection = width * height;
  return intersection / (a.width * a.height + b.width * b.height - intersection);
}

/**
 * Refuses a logo with a photographic human face (the terms forbid human faces; a drawn or emoji face is
 * part of many honest logos and passes). A face detector whose weights @vladmandic/face-api ships finds
 * the faces; each face found is then measured for how photographic its pixels are. The weights are read
 * from node_modules (nothing is fetched) once per process.
 */
export class FaceModeration implements ModerationProvider {
  readonly name = 'face-api';
  private detector: Promise<Detector> | undefined;
  loadMs: number | undefined;

  constructor(private readonly options: FaceModerationOptions) {}

  warmUp(): Promise<void> {
    return this.loaded().then(() => undefined);
  }

  private loaded(): Promise<Detector> {
    this.detector ??= (async () => {
      const started = performance.now();
      // nsfwjs (loaded alongside) may have begun the backend's initialisation: a second setBackend would
      // start another WebAssembly instance and discard the first.
      if (tf.getBackend() !== 'wasm') await tf.setBackend('wasm');
      await tf.ready();
      if (tf.getBackend() !== 'wasm') throw new Error(`TensorFlow.js runs on ${tf.getBackend()}, not its WebAssembly backend`);
      const detector = this.options.detector === 'ssd_mobilenetv1' ? new faceapi.SsdMobilenetv1() : new faceapi.TinyFaceDetector();
      await detector.loadFromDisk(MODEL_DIR);
      // One detection on a blank image compiles the kernels, so the first upload does not pay for it.
      const blank = tf.zeros([64, 64, 3], 'int32') as tf.Tensor3D;
      try {
        await this.locate(detector, blank);
      } finally {
        blank.dispose();
      }
      this.loadMs = Math.round(performance.now() - started);
      return detector;
    })();
    // A failed load is retried by the next request instead of failing every upload until a restart.
    this.detector.catch(() => (this.detector = undefined));
    return this.detector;
  }

  private async locate(detector: Detector, input: tf.Tensor3D): Promise<faceapi.FaceDetection[]> {
    // face-api's typings bundle their own copy of tfjs's declarations; at run time the tensor is this tfjs's.
    const netInput = input as unknown as faceapi.TNetInput;
    if (detector instanceof faceapi.SsdMobilenetv1) return detector.locateFaces(netInput, { minConfidence: REPORTED_SCORE });
    const found: faceapi.FaceDetection[] = [];
    for (const inputSize of TINY_INPUT_SIZES)
      found.push(...(await detector.locateFaces(netInput, { inputSize, scoreThreshold: REPORTED_SCORE })));
    return distinctFaces(found);
  }

  async moderate(image: ModerationImage): Promise<ModerationVerdict> {
    const started = performance.now();
    let detections: faceapi.FaceDetection[];
    try {
      const detector = await this.loaded();
      // Int32Array.from copies into this realm's typed array, which tfjs recognises in any host (jest included).
      const input = tf.tensor3d(Int32Array.from(image.data), [image.height, image.width, 3], 'int32');
      try {
        detections = await this.locate(detector, input);
      } finally {
        input.dispose();
      }
    } catch (error: unknown) {
      throw new ModerationUnavailable(error);
    }
    const faces = detections
      .map((detection) => {
        const box = { x: detection.box.x, y: detection.box.y, width: detection.box.width, height: detection.box.height };
        return { score: detection.score, box, ...photographicMeasure(image, box) };
      })
      .sort((a, b) => b.score - a.score);
    const photographs = faces.filter((face) => face.score >= this.options.minScore && face.photographic >= this.options.minPhotographic);
    const percent = (value: number) => `${Math.round(value * 100)}%`;
    const reason =
      photographs.length > 0
        ? `A photographic human face was found (score ${percent(photographs[0]!.score)})`
        : faces.some((face) => face.score >= this.options.minScore)
          ? 'Only drawn faces found'
          : 'No human face found';
    return {
      isValid: photographs.length === 0,
      reason,
      rawResponse: {
        provider: this.name,
        detector: this.options.detector,
        minScore: this.options.minScore,
        minPhotographic: this.options.minPhotographic,
        faces: faces.map((face) => ({
          score: round(face.score),
          box: {
            x: Math.round(face.box.x),
            y: Math.round(face.box.y),
            width: Math.round(face.box.width),
            height: Math.round(face.box.height),
          },
          photographic: face.photographic,
          texture: face.texture,
          smooth: face.smooth,
        })),
        elapsedMs: Math.round(performance.now() - started),
        modelLoadMs: this.loadMs,
      },
    };
  }
}
