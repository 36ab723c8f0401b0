import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import { NSFWJS, type PredictionType } from 'nsfwjs/core';
import sharp from 'sharp';
import { ModerationUnavailable, type ModerationImage, type ModerationProvider, type ModerationVerdict } from './provider';

const INPUT_SIZE = 224;
const MODEL = 'MobileNetV2';
/** Classes of the model that are not nudity; the rest (Porn, Hentai, Sexy) add up to the nudity score. */
const SAFE_CLASSES = new Set(['Neutral', 'Drawing']);

export interface NsfwjsOptions {
  /** Nudity score (0..1) from which an image is refused. */
  threshold: number;
}

/** How long the last model load took, for the start-up log and the moderation test's raw response. */
export interface ModelTimings {
  backend: string;
  loadMs: number;
}

/**
 * nsfwjs ships its models as JavaScript bundles (model JSON and base64 weights). Loading them through
 * the package's own loader copies every character of the 3.5 MB weight string into an object (4 s);
 * reading the same files directly and decoding with Buffer takes a few milliseconds. Nothing is
 * fetched: the files are in node_modules.
 */
function bundledModel(): tf.io.ModelArtifacts {
  const modelDir = join(dirname(require.resolve('nsfwjs/core')), '..', 'models', 'mobilenet_v2');
  const load = createRequire(__filename);
  const modelJson = load(join(modelDir, 'model.min.js')) as tf.io.ModelJSON;
  const weights = Buffer.concat(
    (modelJson.weightsManifest ?? []).flatMap((group) =>
      group.paths.map((path) => Buffer.from(load(join(modelDir, `${path}.min.js`)) as string, 'base64')),
    ),
  );
  return {
    modelTopology: modelJson.modelTopology,
    format: modelJson.format,
    generatedBy: modelJson.generatedBy,
    convertedBy: modelJson.convertedBy,
    weightSpecs: (modelJson.weightsManifest ?? []).flatMap((group) => group.weights),
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  };
}

/**
 * The local nudity classifier: nsfwjs (MobileNetV2, 224×224 input) on TensorFlow.js's WebAssembly
 * backend, which needs no native add-on and no network. Loaded once per process.
 */
export class NsfwjsModeration implements ModerationProvider {
  readonly name = 'nsfwjs';
  private model: Promise<NSFWJS> | undefined;
  timings: ModelTimings | undefined;

  constructor(private readonly options: NsfwjsOptions) {}

  warmUp(): Promise<void> {
    return this.loaded().then(() => undefined);
  }

  private loaded(): Promise<NSFWJS> {
    this.model ??= (async () => {
      const started = performance.now();
      await tf.setBackend('wasm');
      await tf.ready();
      const model = new NSFWJS(tf.io.fromMemory(bundledModel()), { size: INPUT_SIZE });
      // load() also runs one prediction, so the first real image does not pay for initialisation.
      await model.load();
      this.timings = { backend: tf.getBackend(), loadMs: Math.round(performance.now() - started) };
      return model;
    })();
    // A failed load is retried by the next request instead of failing every upload until a restart.
    this.model.catch(() => (this.model = undefined));
    return this.model;
  }

  async moderate(image: ModerationImage): Promise<ModerationVerdict> {
    let predictions: PredictionType[];
    const started = performance.now();
    try {
      const model = await this.loaded();
      const pixels = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
        .resize(INPUT_SIZE, INPUT_SIZE, { fit: 'fill' })
        .raw()
        .toBuffer();
      // Int32Array.from copies into this realm's typed array, which tfjs recognises in any host (jest included).
      const input = tf.tensor3d(Int32Array.from(pixels), [INPUT_SIZE, INPUT_SIZE, 3], 'int32');
      try {
        predictions = await model.classify(input, 5);
      } finally {
        input.dispose();
      }
    } catch (error: unknown) {
      throw new ModerationUnavailable(error);
    }
    return this.verdict(predictions, Math.round(performance.now() - started));
  }

  private verdict(predictions: PredictionType[], elapsedMs: number): ModerationVerdict {
    const unsafe = predictions.filter((prediction) => !SAFE_CLASSES.has(prediction.className));
    const nudityScore = unsafe.reduce((sum, prediction) => sum + prediction.probability, 0);
    const isValid = nudityScore < this.options.threshold;
    const percent = (value: number) => `${Math.round(value * 100)}%`;
    const reason = isValid
      ? 'No nudity detected'
      : `Nudity detected (${unsafe.map((prediction) => `${prediction.className} ${percent(prediction.probability)}`).join(', ')})`;
    return {
      isValid,
      reason,
      rawResponse: {
        provider: this.name,
        model: MODEL,
        threshold: this.options.threshold,
        nudityScore: Math.round(nudityScore * 1000) / 1000,
        predictions: predictions.map((prediction) => ({
          className: prediction.className,
          probability: Math.round(prediction.probability * 1000) / 1000,
        })),
        elapsedMs,
        modelLoadMs: this.timings?.loadMs,
      },
    };
  }
}
