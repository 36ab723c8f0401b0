import { dirname, join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import tesseract from 'tesseract.js';
import { BrandMatcher, loadBrandList, type BrandName, type ReadWord } from './brand-names';
import { ModerationUnavailable, type ModerationImage, type ModerationProvider, type ModerationVerdict } from './provider';

/** The trained English model @tesseract.js-data/eng ships (LSTM only: the legacy engine is not loaded). */
const MODEL = '4.0.0_best_int';
const LANGUAGE = 'eng';
/** The side the logo is scaled to for reading (docs/moderation.md: the smallest that keeps the recall). */
const OCR_SIDE = 384;
/** Sparse text: a logo's words stand anywhere, beside shapes, not in paragraphs. */
const PAGE_SEGMENTATION = tesseract.PSM.SPARSE_TEXT;

export interface BrandModerationOptions {
  /** OCR workers (threads) reading in parallel; each holds its own copy of the model. */
  workers: number;
  /** The brand list; the repository's (data/brand-names.txt) when not given. */
  brands?: readonly BrandName[];
}

/** The worker threads of one start; `failed` rejects if any of them dies or they are closed, so no upload waits forever. */
interface OcrWorkers {
  scheduler: tesseract.Scheduler;
  threads: Worker[];
  failed: Promise<never>;
  fail: (error: Error) => void;
  loadMs: number;
}

/** If the first reading finds no word this sure (0..100), the words may sit in a badge: read again. */
const SECOND_READING_BELOW_CONFIDENCE = 50;

interface GreyImage {
  data: Buffer;
  width: number;
  height: number;
}

/** The logo in grey, its longer side at OCR_SIDE pixels. */
async function greyImage(image: ModerationImage): Promise<GreyImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .greyscale()
    .resize(OCR_SIDE, OCR_SIDE, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Level 1: the PNG only crosses to the worker thread, where it is decoded at once. */
function png(grey: GreyImage, negate = false): Promise<Buffer> {
  const image = sharp(grey.data, { raw: { width: grey.width, height: grey.height, channels: 1 } });
  return (negate ? image.negate({ alpha: false }) : image).png({ compressionLevel: 1 }).toBuffer();
}

function histogramOf(grey: GreyImage): Uint32Array {
  const histogram = new Uint32Array(256);
  for (const value of grey.data) histogram[value]! += 1;
  return histogram;
}

/**
 * The first reading: dark text on a light background, as Tesseract expects ink on paper. The background
 * covers most of a logo, so the median brightness says which way round the text is.
 */
async function directReading(grey: GreyImage): Promise<{ png: Buffer; inverted: boolean }> {
  const histogram = histogramOf(grey);
  let median = 0;
  for (let below = histogram[0]!; below < grey.data.length / 2; below += histogram[median]!) median += 1;
  const inverted = median < 128;
  return { png: await png(grey, inverted), inverted };
}

/** The grey level that best splits the image into two classes (Otsu's method). */
function otsuThreshold(histogram: Uint32Array, pixels: number): number {
  let total = 0;
  for (let level = 0; level < 256; level += 1) total += level * histogram[level]!;
  let darkSum = 0;
  let darkCount = 0;
  let best = 0;
  let threshold = 127;
  for (let level = 0; level < 256; level += 1) {
    darkCount += histogram[level]!;
    const lightCount = pixels - darkCount;
    if (darkCount === 0) continue;
    if (lightCount === 0) break;
    darkSum += level * histogram[level]!;
    const between = darkCount * lightCount * (darkSum / darkCount - (total - darkSum) / lightCount) ** 2;
    if (between > best) {
      best = between;
      threshold = level;
    }
  }
  return threshold;
}

/**
 * The second reading, for words inside a badge (light letters in a dark shape on a light background, or the
 * reverse): Tesseract takes letters nested in a larger shape for part of a picture, whichever way round. Here
 * the background around the shapes (what touches the border) is removed, and what has the background's
 * colour without touching the border (the badge's letters) becomes black ink on white.
 */
async function badgeReading(grey: GreyImage): Promise<Buffer> {
  const { data, width, height } = grey;
  const threshold = otsuThreshold(histogramOf(grey), data.length);
  const border: number[] = [];
  for (let x = 0; x < width; x += 1) border.push(x, (height - 1) * width + x);
  for (let y = 1; y < height - 1; y += 1) border.push(y * width, y * width + width - 1);
  const backgroundIsLight = border.filter((pixel) => data[pixel]! > threshold).length * 2 >= border.length;
  const isBackgroundColour = (pixel: number) => data[pixel]! > threshold === backgroundIsLight;
  // Flood fill from the border through the background's colour.
  const outside = new Uint8Array(data.length);
  const pending: number[] = [];
  const reach = (pixel: number) => {
    if (outside[pixel] === 0 && isBackgroundColour(pixel)) {
      outside[pixel] = 1;
      pending.push(pixel);
    }
  };
  border.forEach(reach);
  for (let pixel = pending.pop(); pixel !== undefined; pixel = pending.pop()) {
    const x = pixel % width;
    if (x > 0) reach(pixel - 1);
    if (x < width - 1) reach(pixel + 1);
    if (pixel >= width) reach(pixel - width);
    if (pixel < data.length - width) reach(pixel + width);
  }
  const ink = Buffer.alloc(data.length, 255);
  for (let pixel = 0; pixel < data.length; pixel += 1) if (outside[pixel] === 0 && isBackgroundColour(pixel)) ink[pixel] = 0;
  return png({ data: ink, width, height });
}

/** Every word read, in reading order, with its confidence. */
function wordsOf(page: tesseract.Page): ReadWord[] {
  return (page.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.flatMap((line) => line.words.map((word) => ({ text: word.text, confidence: Math.round(word.confidence) }))),
    ),
  );
}

/**
 * Impersonation: reads the text of the logo with Tesseract (tesseract.js, WebAssembly in worker threads, so
 * the reading never blocks the main thread) and refuses a logo that reads a well-known brand name (the list
 * in data/brand-names.txt, matched by BrandMatcher). Everything comes from node_modules: the engine
 * (tesseract.js-core), the trained model (@tesseract.js-data/eng); nothing is fetched and no cache file is
 * written. The workers start once per process.
 */
export class BrandModeration implements ModerationProvider {
  readonly name = 'tesseract';
  private readonly matcher: BrandMatcher;
  private workers: Promise<OcrWorkers> | undefined;
  private closed = false;

  constructor(private readonly options: BrandModerationOptions) {
    this.matcher = new BrandMatcher(options.brands ?? loadBrandList());
  }

  warmUp(): Promise<void> {
    return this.started().then(() => undefined);
  }

  private started(): Promise<OcrWorkers> {
    if (this.closed) return Promise.reject(new Error('brand moderation is closed'));
    if (!this.workers) {
      const starting = this.start();
      this.workers = starting;
      // A failed start, or a worker that died, is retried by the next upload instead of failing every upload.
      const forget = () => {
        if (this.workers === starting) this.workers = undefined;
      };
      starting.then((loaded) => loaded.failed.catch(forget), forget);
    }
    return this.workers;
  }

  private async start(): Promise<OcrWorkers> {
    const started = performance.now();
    const langPath = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), MODEL);
    let fail: (error: Error) => void = () => undefined;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    // tesseract.js reports a failed model load only to errorHandler (the worker's promise never settles).
    let failToStart: (error: Error) => void = () => undefined;
    const notStarted = new Promise<never>((_, reject) => (failToStart = reject));
    const scheduler = tesseract.createScheduler();
    const threads: Worker[] = [];
    try {
      await Promise.all(
        Array.from({ length: this.options.workers }, async () => {
          const creating = tesseract.createWorker(LANGUAGE, tesseract.OEM.LSTM_ONLY, {
            langPath,
            // The model is read from langPath each start; by default tesseract.js would also cache a copy,
            // eng.traineddata, in the working directory (read-only in the service images).
            cacheMethod: 'none',
            gzip: true,
            // Also, without a handler, a failed job throws in tesseract.js's message listener (uncaught);
            // with one, the job's own promise rejects.
            errorHandler: (message: unknown) => failToStart(new Error(`OCR worker: ${String(message)}`)),
          });
          const worker = await Promise.race([creating, notStarted]);
          const thread = (worker as unknown as { worker: Worker }).worker;
          threads.push(thread);
          // A worker that dies takes its jobs with it: they fail (503) and the next upload starts afresh.
          thread.on('error', (error: Error) => fail(error));
          await worker.setParameters({
            tessedit_pageseg_mode: PAGE_SEGMENTATION,
            // The polarity is settled before (directReading): reading every word inverted too costs time.
            tessedit_do_invert: '0',
            // The preview has no resolution; without one Tesseract guesses it for every image.
            user_defined_dpi: '96',
          });
          scheduler.addWorker(worker);
        }),
      );
    } catch (error: unknown) {
      await Promise.all(threads.map((thread) => thread.terminate()));
      throw error;
    }
    failed.catch(() => Promise.all(threads.map((thread) => thread.terminate())));
    return { scheduler, threads, failed, fail, loadMs: Math.round(performance.now() - started) };
  }

  async moderate(image: ModerationImage): Promise<ModerationVerdict> {
    const started = performance.now();
    let page: tesseract.Page;
    let words: ReadWord[];
    let reading: 'direct' | 'inverted' | 'badge';
    let loadMs: number;
    try {
      const workers = await this.started();
      loadMs = workers.loadMs;
      const read = async (input: Buffer) => {
        const result = await Promise.race([workers.scheduler.addJob('recognize', input, {}, { text: true, blocks: true }), workers.failed]);
        return { page: result.data, words: wordsOf(result.data) };
      };
      const grey = await greyImage(image);
      const direct = await directReading(grey);
      ({ page, words } = await read(direct.png));
      reading = direct.inverted ? 'inverted' : 'direct';
      if (!words.some((word) => word.confidence >= SECOND_READING_BELOW_CONFIDENCE)) {
        ({ page, words } = await read(await badgeReading(grey)));
        reading = 'badge';
      }
    } catch (error: unknown) {
      throw new ModerationUnavailable(error);
    }
    const match = this.matcher.match(words);
    const reason = !match
      ? 'No well-known brand name read'
      : `The logo reads "${match.brand}"${match.read === match.brand ? '' : ` (as "${match.read}")`}, a well-known brand name: possibly impersonating`;
    return {
      isValid: !match,
      reason,
      rawResponse: {
        provider: this.name,
        model: `${LANGUAGE} ${MODEL}`,
        text: page.text.replace(/\s+/g, ' ').trim(),
        confidence: Math.round(page.confidence),
        words,
        brand: match?.brand ?? null,
        matchedWords: match?.read ?? null,
        approximate: match?.approximate ?? false,
        reading,
        elapsedMs: Math.round(performance.now() - started),
        workersLoadMs: loadMs,
      },
    };
  }

  /** Ends the worker threads (service shutdown, tests): an idle worker would keep the process alive. */
  async close(): Promise<void> {
    this.closed = true;
    const loading = this.workers;
    this.workers = undefined;
    const loaded = await loading?.catch(() => undefined);
    if (!loaded) return;
    loaded.fail(new Error('brand moderation closed'));
    await loaded.scheduler.terminate();
    await Promise.all(loaded.threads.map((thread) => thread.terminate()));
  }
}
